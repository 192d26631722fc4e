//! Named switches for the generator's features that meet *known* tass bugs.
//!
//! Each switch stays off in the CI slice until its fix has landed; `--features` turns
//! switches on (`--features all` for every one). docs/TESTING.md lists them.

use std::collections::BTreeSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Feature {
    /// Comparisons and arithmetic mixing `int` and `unsigned` (the usual conversions).
    MixedSign,
    /// Byte arithmetic through `char *` into an `int` array, cast back to `int *`.
    CharBytes,
    /// `while (!flag) MPI_Iprobe(...)` waiting for a message, also sent with `MPI_Ssend`.
    IprobeSsend,
    /// `MPI_Sendrecv` exchanges (its send half may be buffered or not).
    Sendrecv,
    /// `while (!done) MPI_Test(...)` loops instead of `MPI_Wait`.
    TestLoop,
    /// A `#pragma TASS output` global written by every process (each has its own copy).
    SharedOutputs,
}

pub const ALL: &[Feature] = &[
    Feature::MixedSign,
    Feature::CharBytes,
    Feature::IprobeSsend,
    Feature::Sendrecv,
    Feature::TestLoop,
    Feature::SharedOutputs,
];

impl Feature {
    pub fn name(self) -> &'static str {
        match self {
            Feature::MixedSign => "mixed-sign",
            Feature::CharBytes => "char-bytes",
            Feature::IprobeSsend => "iprobe-ssend",
            Feature::Sendrecv => "sendrecv",
            Feature::TestLoop => "test-loop",
            Feature::SharedOutputs => "shared-outputs",
        }
    }
}

/// The switched-on features.
pub type Features = BTreeSet<Feature>;

/// Parses `a,b,c` or `all` or `none`.
pub fn parse(text: &str) -> Result<Features, String> {
    let mut set = Features::new();
    for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match word {
            "all" => set.extend(ALL.iter().copied()),
            "none" => {}
            _ => match ALL.iter().find(|f| f.name() == word) {
                Some(f) => {
                    set.insert(*f);
                }
                None => {
                    let names: Vec<_> = ALL.iter().map(|f| f.name()).collect();
                    return Err(format!(
                        "unknown feature `{word}` (known: {}, all, none)",
                        names.join(", ")
                    ));
                }
            },
        }
    }
    Ok(set)
}

pub fn names(set: &Features) -> String {
    if set.is_empty() {
        return "none".into();
    }
    set.iter().map(|f| f.name()).collect::<Vec<_>>().join(",")
}
