//! The table of tunable parameters and the `tunables!` macro that makes
//! each one a function, an entry of [`TUNABLES`] and, with the `tune`
//! feature, a value that [`set`] changes while the engine runs.

use std::sync::atomic::{AtomicI32, Ordering};

/// Whether this build reads the tunables' current values (the `tune`
/// feature) rather than their defaults, and offers them as USI options.
pub const TUNING: bool = cfg!(feature = "tune");

/// One search parameter a tuner may change.
#[derive(Debug)]
pub struct Tunable {
    /// Its name, which is also its USI option's (`RFP_MARGIN`).
    pub name: &'static str,
    /// Its value in a normal build.
    pub default: i32,
    /// The least value a tuner may try.
    pub min: i32,
    /// The greatest value a tuner may try.
    pub max: i32,
    /// SPSA's final step for it (`c_end`): about a twentieth of its range,
    /// at least 1.
    pub step: i32,
    current: AtomicI32,
}

impl Tunable {
    /// A parameter at its default.
    pub(super) const fn new(
        name: &'static str,
        default: i32,
        min: i32,
        max: i32,
        step: i32,
    ) -> Tunable {
        Tunable {
            name,
            default,
            min,
            max,
            step,
            current: AtomicI32::new(default),
        }
    }

    /// The value the search uses: the default, or with the `tune` feature
    /// the last one [`set`].
    #[inline(always)]
    pub fn value(&self) -> i32 {
        if TUNING {
            self.current.load(Ordering::Relaxed)
        } else {
            self.default
        }
    }

    /// Its USI option, as `koma usi` lists it with the `tune` feature.
    pub fn usi_option(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name,
            self.value(),
            self.min,
            self.max
        )
    }

    /// Its line for an SPSA tuner, in OpenBench's format: name, type,
    /// value, min, max, `c_end`, `r_end`.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, 0.002",
            self.name, self.default, self.min, self.max, self.step
        )
    }
}

/// Why [`set`] refused a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TuneError {
    /// No tunable has this name.
    #[error("no tunable parameter is named {0}")]
    Unknown(String),
    /// The value is not a whole number within the parameter's range.
    #[error("{name} takes a whole number from {min} to {max}, not {value:?}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: String,
        /// Its least value.
        min: i32,
        /// Its greatest value.
        max: i32,
    },
}

/// Sets the tunable named `name` (case, spaces and underscores ignored, as
/// USI option names are compared) to `value`. It changes what the search
/// uses only with the `tune` feature; every search thread reads it at its
/// next use.
pub fn set(name: &str, value: &str) -> Result<&'static Tunable, TuneError> {
    let key = |text: &str| text.to_ascii_lowercase().replace([' ', '_'], "");
    let wanted = key(name);
    let tunable = super::TUNABLES
        .iter()
        .copied()
        .find(|t| key(t.name) == wanted)
        .ok_or_else(|| TuneError::Unknown(name.to_owned()))?;
    let number = value
        .trim()
        .parse::<i32>()
        .ok()
        .filter(|n| (tunable.min..=tunable.max).contains(n))
        .ok_or_else(|| TuneError::OutOfRange {
            name: tunable.name,
            value: value.to_owned(),
            min: tunable.min,
            max: tunable.max,
        })?;
    tunable.current.store(number, Ordering::Relaxed);
    Ok(tunable)
}

/// Declares the tunables: for each, a static, a function that reads it
/// and an entry of [`TUNABLES`].
macro_rules! tunables {
    ($( $(#[$doc:meta])* $name:ident, $getter:ident = $default:literal, $min:literal..=$max:literal, step $step:literal; )*) => {
        /// The parameters themselves, one static each.
        #[allow(non_upper_case_globals)]
        mod statics {
            use super::tunable::Tunable;
            $( pub static $name: Tunable = Tunable::new(stringify!($name), $default, $min, $max, $step); )*
        }
        $(
            $(#[$doc])*
            #[inline(always)]
            pub fn $getter() -> i32 {
                statics::$name.value()
            }
        )*
        /// Every tunable parameter, in the order declared.
        pub static TUNABLES: &[&Tunable] = &[ $( &statics::$name ),* ];
    };
}
pub(super) use tunables;

#[cfg(test)]
mod tests {
    use super::super::TUNABLES;
    use super::*;

    #[test]
    fn every_default_is_within_its_range_with_a_step_that_fits() {
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(
                t.step >= 1 && t.step <= (t.max - t.min) / 4 + 1,
                "{}",
                t.name
            );
        }
        let mut names: Vec<_> = TUNABLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len(), "two tunables share a name");
    }

    #[test]
    fn set_takes_a_value_in_range_by_a_usi_like_name_and_refuses_the_rest() {
        // A parameter the search barely uses, restored at the end: other
        // tests of this binary run searches at the same time.
        let t = set("singular margin per ply", "3").unwrap();
        assert_eq!(t.name, "SINGULAR_MARGIN_PER_PLY");
        assert_eq!(t.value(), if TUNING { 3 } else { t.default });
        assert!(matches!(
            set("SINGULAR_MARGIN_PER_PLY", "9"),
            Err(TuneError::OutOfRange { min: 1, max: 8, .. })
        ));
        assert!(matches!(
            set("SINGULAR_MARGIN_PER_PLY", "two"),
            Err(TuneError::OutOfRange { .. })
        ));
        assert_eq!(
            set("NoSuchThing", "1").unwrap_err(),
            TuneError::Unknown("NoSuchThing".into())
        );
        set("SINGULAR_MARGIN_PER_PLY", &t.default.to_string()).unwrap();
        assert_eq!(t.value(), t.default);
    }
}
