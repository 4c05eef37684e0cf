//! What the machine offers, where the system tells it: its memory, for
//! commands that refuse a table bigger than the machine (`koma solve
//! --memory`, `koma mate --hash`).

/// The machine's memory in bytes, where the system tells it (Linux's
/// `/proc/meminfo`, in kB).
pub fn physical_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}
