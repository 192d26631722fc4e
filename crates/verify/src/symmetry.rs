//! The hypotheses of the symmetry reduction theorem (comparative paper, Sec. 3.2)
//! for `tass compare --symmetry ARRAYS`.
//!
//! The group is every permutation of the element positions `0..n` of the named
//! input arrays, all permuted alike (`--symmetry rx,ry`: point `i` is the pair
//! `rx[i], ry[i]`). The theorem needs the specification's path condition and
//! output to be invariant under the group. Here that is decided, never assumed:
//! for each generator `g` of the group (a transposition and an `n`-cycle
//! generate every permutation, and a set of paths mapped onto itself by the
//! generators is mapped onto itself by the whole group), every specification
//! path `(pc, y)` must have a path `(pc', y')` with `g(pc) <=> pc'` valid and
//! `g(y) = y'` proved under `g(pc)` at the run's arithmetic level.
//!
//! When they hold, `compare.rs` has the implementation's search go on from one
//! representative per orbit (`tass_state`'s `symmetry.rs` says why that is
//! sound); when they do not, it says which failed and explores in full.

use crate::engine::{Engine, OutputPair};
use crate::options::Options;

/// A completed specification path: its path condition and its outputs.
type SpecPath<E> = (<E as Engine>::Value, Vec<(String, <E as Engine>::Value)>);

/// Whether the specification's paths are invariant under the group.
pub(crate) enum SpecSymmetry {
    /// Proved, for arrays of this many elements.
    Invariant { elements: usize },
    /// Not established; the sentence says which hypothesis and where.
    NotEstablished(String),
}

/// The sentence `compare` reports for `--symmetry`, given the specification's
/// completed paths (terminal states), and the number of elements permuted when
/// the hypotheses are proved.
pub(crate) fn report<E: Engine>(
    spec: &mut E,
    terminals: &crate::compare::Terminals<E>,
    options: &Options,
) -> (String, Option<usize>) {
    let paths: Vec<_> = terminals
        .states()
        .map(|state| (spec.path_condition(state), spec.outputs(state)))
        .collect();
    let arrays = options.symmetry.join(", ");
    match decide(spec, &paths, &options.symmetry) {
        SpecSymmetry::Invariant { elements } => (
            format!(
                "--symmetry: proved that the specification's path conditions and outputs \
                 are invariant under every permutation of the {elements} elements of \
                 {arrays} (the hypotheses of the symmetry reduction theorem)"
            ),
            Some(elements).filter(|&n| n >= 2),
        ),
        SpecSymmetry::NotEstablished(reason) => (
            format!(
                "--symmetry: the specification's symmetry in {arrays} is not established \
                 ({reason}); running without the reduction"
            ),
            None,
        ),
    }
}

/// Most specification paths whose orbit is decided (each generator and path may
/// be matched against every path: quadratic in prover calls).
const MAX_PATHS: usize = 64;

/// Decides hypotheses 1 and 2 of the theorem for the specification's completed
/// `paths` (path condition, outputs) and the symmetric input `arrays`.
pub(crate) fn decide<E: Engine>(
    spec: &mut E,
    paths: &[SpecPath<E>],
    arrays: &[String],
) -> SpecSymmetry {
    let values: Vec<E::Value> = paths
        .iter()
        .flat_map(|(pc, outputs)| std::iter::once(pc).chain(outputs.iter().map(|(_, v)| v)))
        .cloned()
        .collect();
    let elements = match spec.symmetric_extent(arrays, &values) {
        Ok(n) => n,
        Err(reason) => return SpecSymmetry::NotEstablished(reason),
    };
    if elements < 2 {
        return SpecSymmetry::Invariant { elements };
    }
    if paths.len() > MAX_PATHS {
        return SpecSymmetry::NotEstablished(format!(
            "the specification has {} completed paths, more than the {MAX_PATHS} \
             whose permutations are checked",
            paths.len()
        ));
    }
    for generator in generators(elements) {
        for (index, (pc, outputs)) in paths.iter().enumerate() {
            if let Err(reason) = has_image(spec, paths, (pc, outputs), arrays, &generator) {
                return SpecSymmetry::NotEstablished(format!(
                    "hypothesis {reason} fails for the specification's path {} under \
                     the permutation {} of the elements of {}",
                    index + 1,
                    show_permutation(&generator),
                    arrays.join(", ")
                ));
            }
        }
    }
    SpecSymmetry::Invariant { elements }
}

/// `Ok` if the image of `path` under `permutation` is one of `paths` (up to the
/// prover); else which hypothesis failed: "1 (path condition)" when no path has
/// the permuted path condition, "2 (output `name`)" when one has but an output
/// differs.
fn has_image<E: Engine>(
    spec: &mut E,
    paths: &[SpecPath<E>],
    (pc, outputs): (&E::Value, &[(String, E::Value)]),
    arrays: &[String],
    permutation: &[usize],
) -> Result<(), String> {
    let permuted = |spec: &mut E, v: &E::Value| spec.permute_inputs(v, arrays, permutation);
    let image_pc = permuted(spec, pc).map_err(|e| format!("1 (path condition: {e})"))?;
    let mut differing_output = None;
    for (other_pc, other_outputs) in paths {
        if !spec.equivalent_conditions(&image_pc, other_pc) {
            continue;
        }
        let mut all_equal = true;
        for ((name, value), (_, other_value)) in outputs.iter().zip(other_outputs) {
            let image = permuted(spec, value).map_err(|e| format!("2 (output {name}: {e})"))?;
            if spec
                .compare_output(
                    &image_pc,
                    OutputPair {
                        name,
                        spec: other_value,
                        imp: &image,
                    },
                )
                .is_some()
            {
                differing_output.get_or_insert_with(|| name.clone());
                all_equal = false;
                break;
            }
        }
        if all_equal {
            return Ok(());
        }
    }
    Err(match differing_output {
        Some(name) => format!("2 (output `{name}` not proved invariant)"),
        None => "1 (no path has the permuted path condition)".to_string(),
    })
}

/// Generators of the symmetric group on `0..n` (`n >= 2`): the transposition of
/// 0 and 1, and (for `n > 2`) the cycle `i -> i + 1 mod n`. Each is given as the
/// list of images: element `k` of the permuted array is element `p[k]` of the
/// original.
fn generators(n: usize) -> Vec<Vec<usize>> {
    let mut swap: Vec<usize> = (0..n).collect();
    swap.swap(0, 1);
    let mut all = vec![swap];
    if n > 2 {
        all.push((0..n).map(|k| (k + 1) % n).collect());
    }
    all
}

fn show_permutation(p: &[usize]) -> String {
    let images: Vec<String> = p.iter().map(|k| k.to_string()).collect();
    format!("[{}]", images.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_a_transposition_and_a_cycle() {
        assert_eq!(generators(2), vec![vec![1, 0]]);
        assert_eq!(generators(3), vec![vec![1, 0, 2], vec![1, 2, 0]]);
    }
}
