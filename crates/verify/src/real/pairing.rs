//! `compare`'s pairing of paths: which paths of the specification and of the
//! implementation can meet (the constants each path condition fixes refute most
//! pairs without the prover), and whether the implementation's paths cover every
//! path of the specification.

use std::collections::HashSet;
use std::sync::Arc;

use tass_prove::api::{Answer, Validity};
use tass_semantics::api::is_internal_symbol;
use tass_state::api::Value;
use tass_symbolic::api::Expr;

use super::RealEngine;
use crate::engine::Uncovered;

/// A path condition's clauses (its top-level conjuncts) and their negations.
pub(super) struct ClauseSets {
    clauses: HashSet<Expr>,
    negations: HashSet<Expr>,
}

/// The constants a path condition fixes (with their values) and those it mentions.
pub(super) type PairingFacts = (Arc<tass_symbolic::api::ExprMap>, Arc<HashSet<Expr>>);

impl RealEngine {
    /// Why the implementation's paths were not shown to cover a path of the
    /// specification (`answer`: the prover's verdict on that path).
    pub(super) fn uncovered(answer: Answer) -> Uncovered {
        match answer.validity {
            Validity::Yes | Validity::No => Uncovered::NoPathCompletes {
                example: answer
                    .model
                    .map(|m| {
                        m.iter()
                            .filter(|(name, _)| !is_internal_symbol(name))
                            .map(|(name, v)| format!("{name} = {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .filter(|e| !e.is_empty()),
            },
            Validity::Maybe => Uncovered::Undecided,
        }
    }

    /// True if a clause of `a` is the negation of a clause of `b`: then `a && b`
    /// contains `c && !c` and is unsatisfiable in every interpretation (at
    /// herbrand level the usual way two paths part: one took `a[i][c] != 0`, the
    /// other `a[i][c] == 0`, over the same uninterpreted term, where no constant
    /// is fixed and [`Self::fixed_values_refute`] sees nothing).
    pub(super) fn clauses_contradict(&mut self, a: Expr, b: Expr) -> bool {
        let a = self.clause_sets(a);
        let b = self.clause_sets(b);
        !a.negations.is_disjoint(&b.clauses)
    }

    /// [`ClauseSets`] of `condition`, computed once per condition.
    fn clause_sets(&mut self, condition: Expr) -> Arc<ClauseSets> {
        let f = &self.factory;
        let sets = self.clause_sets.entry(condition).or_insert_with(|| {
            let clauses: HashSet<Expr> = f.conjuncts(condition).into_iter().collect();
            let negations = clauses.iter().map(|&c| f.not(c)).collect();
            Arc::new(ClauseSets { clauses, negations })
        });
        Arc::clone(sets)
    }

    /// True if the constants `fixer` fixes to concrete values make `other` true:
    /// then `fixer` implies `other`.
    pub(super) fn fixed_values_satisfy(&mut self, fixer: Expr, other: Expr) -> bool {
        let f = Arc::clone(&self.factory);
        match self.after_fixing(fixer, other, false) {
            Some(e) => f.as_bool(e) == Some(true),
            None => f.as_bool(other) == Some(true),
        }
    }

    /// True if the constants `fixer` fixes to concrete values (a path of a loop
    /// over an input fixes the input, `n == 5`) make `other` false: then the two
    /// conditions have no common solution. What a condition fixes and mentions is
    /// cached, so pairing one path with many costs at most one substitution each.
    pub(super) fn fixed_values_refute(&mut self, fixer: Expr, other: Expr) -> bool {
        if self.simplifiers.simplifier(fixer).is_contradictory() {
            return true;
        }
        let f = Arc::clone(&self.factory);
        match self.after_fixing(fixer, other, true) {
            Some(e) => f.as_bool(e) == Some(false),
            None => f.as_bool(other) == Some(false),
        }
    }

    /// `other` with the constants `fixer` fixes replaced by their values; `None`
    /// when `other` mentions none of them (it would come back unchanged). With
    /// `only_if_new`, also `None` when every such constant is one `other` fixes to
    /// the same value itself (the common case of two paths for the same fixed
    /// inputs): substituting then rarely decides anything, and refutations are
    /// only a shortcut.
    pub(super) fn after_fixing(
        &mut self,
        fixer: Expr,
        other: Expr,
        only_if_new: bool,
    ) -> Option<Expr> {
        let fixed = Arc::clone(&self.pairing_facts(fixer).0);
        if fixed.is_empty() {
            return None;
        }
        let (other_fixed, mentioned) = self.pairing_facts(other).clone();
        let mut substitution = tass_symbolic::api::ExprMap::new();
        let mut new = false;
        for (&x, &v) in fixed.iter() {
            match other_fixed.get(&x) {
                // Fixed to different values: the two conditions exclude each other.
                Some(&w) if w != v => return Some(self.factory.ff()),
                Some(_) => {
                    substitution.insert(x, v);
                }
                None if mentioned.contains(&x) => {
                    substitution.insert(x, v);
                    new = true;
                }
                None => {}
            }
        }
        if substitution.is_empty() || (only_if_new && !new) {
            return None;
        }
        Some(self.factory.substitute(other, &substitution))
    }

    /// For compare's pairing of paths: the constants `condition` fixes to concrete
    /// values (its simplifier's eliminated equalities), as a substitution, and the
    /// constants it mentions. Computed once per condition.
    pub(super) fn pairing_facts(&mut self, condition: Expr) -> &PairingFacts {
        if !self.pairing.contains_key(&condition) {
            let s = self.simplifiers.simplifier(condition);
            let f = &self.factory;
            let fixed: tass_symbolic::api::ExprMap = s
                .eliminated()
                .iter()
                .filter(|(_, v)| f.as_concrete_rational(*v).is_some() || f.as_bool(*v).is_some())
                .copied()
                .collect();
            let mentioned: HashSet<Expr> = f.free_symbols(condition).into_iter().collect();
            self.pairing
                .insert(condition, (Arc::new(fixed), Arc::new(mentioned)));
        }
        &self.pairing[&condition]
    }

    /// Whether the paths `cover` of the implementation cover every path of
    /// `domain`, the specification's ([`crate::engine::Engine::covers`]).
    pub(super) fn paths_cover(
        &mut self,
        domain: &[Value],
        cover: &[Value],
    ) -> Result<(), Uncovered> {
        let f = Arc::clone(&self.factory);
        let cover: Vec<Expr> = cover.iter().filter_map(|v| self.data(v)).collect();
        // One question per path of the specification, about the paths of the
        // implementation that can meet it: one disjunction of all paths on each side
        // would be a formula quadratic to build and simplify.
        let domain: Vec<Expr> = domain.iter().filter_map(|v| self.data(v)).collect();
        // Many interleavings end with the same path condition: ask about each once.
        let mut distinct = HashSet::new();
        let cover: Vec<Expr> = cover.into_iter().filter(|&c| distinct.insert(c)).collect();
        let clauses_of_cover: Vec<Arc<ClauseSets>> =
            cover.iter().map(|&c| self.clause_sets(c)).collect();
        for path in domain {
            // A path whose clauses include all of some `c`'s implies `c` (the
            // common case at herbrand level, where both programs branch on the
            // same floating terms): no disjunction to build.
            let clauses = self.clause_sets(path);
            if (clauses_of_cover.iter()).any(|c| c.clauses.is_subset(&clauses.clauses)) {
                continue;
            }
            if cover.iter().any(|&c| self.fixed_values_satisfy(path, c)) {
                continue;
            }
            let meeting: Vec<Expr> = cover
                .iter()
                .copied()
                .filter(|&c| {
                    !self.fixed_values_refute(path, c) && !self.fixed_values_refute(c, path)
                })
                .collect();
            let answer = self.prover.valid_with_model(path, f.or_all(meeting));
            if answer.validity != Validity::Yes {
                return Err(Self::uncovered(answer));
            }
        }
        Ok(())
    }
}
