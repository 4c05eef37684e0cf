//! Rebuilds `koma` when the front end in `web/dist` changes: `koma serve`
//! embeds those files, and a binary built before the front end (or before
//! its last build) would otherwise serve stale ones.

fn main() {
    println!("cargo:rerun-if-changed=../../web/dist");
}
