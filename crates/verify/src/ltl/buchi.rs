//! From an LTL formula to a generalized Büchi automaton: negation normal
//! form, then the tableau construction of Gerth, Peled, Vardi and Wolper
//! ("Simple on-the-fly automatic verification of linear temporal logic",
//! 1995), written from the paper's description.
//!
//! A tableau node stands for the obligations of one position of a word: `old`
//! (what holds now), `next` (what must hold at the next position). Its
//! literals label the node: the automaton is in node `m` at position `i` only
//! if the word's letter `i` satisfies them. There is one acceptance set per
//! `Until` subformula `a U b`: the nodes where `b` holds or `a U b` is not
//! promised, so that no accepting run postpones `b` forever.

use std::collections::{BTreeSet, HashMap};

use tass_model::api::{LtlAtom, LtlFormula};

/// A formula in negation normal form, by index into [`Formulas`].
pub(crate) type FormulaId = usize;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Nnf {
    True,
    False,
    /// Atom number, and whether it appears positively.
    Literal(usize, bool),
    And(FormulaId, FormulaId),
    Or(FormulaId, FormulaId),
    Next(FormulaId),
    Until(FormulaId, FormulaId),
    Release(FormulaId, FormulaId),
}

/// Hash-consed NNF formulas, and the atoms they mention.
#[derive(Default, Debug)]
pub(crate) struct Formulas {
    pub nodes: Vec<Nnf>,
    index: HashMap<Nnf, FormulaId>,
    pub atoms: Vec<LtlAtom>,
}

impl Formulas {
    fn intern(&mut self, n: Nnf) -> FormulaId {
        if let Some(&id) = self.index.get(&n) {
            return id;
        }
        self.nodes.push(n.clone());
        self.index.insert(n, self.nodes.len() - 1);
        self.nodes.len() - 1
    }

    fn atom(&mut self, a: &LtlAtom) -> usize {
        match self.atoms.iter().position(|b| b == a) {
            Some(i) => i,
            None => {
                self.atoms.push(a.clone());
                self.atoms.len() - 1
            }
        }
    }

    /// `f` (or `!f` when `negated`) in negation normal form.
    pub(crate) fn nnf(&mut self, f: &LtlFormula, negated: bool) -> FormulaId {
        use LtlFormula as L;
        let n = negated;
        let node = match f {
            L::Constant(b) => {
                if *b != n {
                    Nnf::True
                } else {
                    Nnf::False
                }
            }
            L::Atom(a) => Nnf::Literal(self.atom(a), !n),
            L::Not(g) => return self.nnf(g, !n),
            L::And(a, b) | L::Or(a, b) => {
                let (x, y) = (self.nnf(a, n), self.nnf(b, n));
                if matches!(f, L::And(..)) != n {
                    Nnf::And(x, y)
                } else {
                    Nnf::Or(x, y)
                }
            }
            L::Implies(a, b) => {
                // a -> b  is  !a || b;  its negation is  a && !b
                let (x, y) = (self.nnf(a, !n), self.nnf(b, n));
                if n {
                    Nnf::And(x, y)
                } else {
                    Nnf::Or(x, y)
                }
            }
            L::Iff(a, b) => {
                // (a && b') || (!a && !b'), where b' is b, or !b when negated
                let (pa, na) = (self.nnf(a, false), self.nnf(a, true));
                let (pb, nb) = (self.nnf(b, n), self.nnf(b, !n));
                let both = self.intern(Nnf::And(pa, pb));
                let neither = self.intern(Nnf::And(na, nb));
                Nnf::Or(both, neither)
            }
            L::Next(g) => Nnf::Next(self.nnf(g, n)),
            L::Always(g) | L::Eventually(g) => {
                // G g = false R g; F g = true U g; negation swaps them
                let x = self.nnf(g, n);
                if matches!(f, L::Always(_)) != n {
                    let fa = self.intern(Nnf::False);
                    Nnf::Release(fa, x)
                } else {
                    let tr = self.intern(Nnf::True);
                    Nnf::Until(tr, x)
                }
            }
            L::Until(a, b) | L::Release(a, b) => {
                let (x, y) = (self.nnf(a, n), self.nnf(b, n));
                if matches!(f, L::Until(..)) != n {
                    Nnf::Until(x, y)
                } else {
                    Nnf::Release(x, y)
                }
            }
            L::WeakUntil(a, b) => {
                // a W b = b R (a || b);  !(a W b) = !b U (!a && !b)
                let (x, y) = (self.nnf(a, n), self.nnf(b, n));
                if n {
                    let both = self.intern(Nnf::And(x, y));
                    Nnf::Until(y, both)
                } else {
                    let either = self.intern(Nnf::Or(x, y));
                    Nnf::Release(y, either)
                }
            }
        };
        self.intern(node)
    }
}

/// A state of the automaton.
#[derive(Clone, Debug)]
pub(crate) struct AutomatonState {
    /// Whether a run may start here.
    pub initial: bool,
    /// The literals the letter read here must satisfy: (atom, positive).
    pub literals: Vec<(usize, bool)>,
    /// The acceptance sets (bits) this state belongs to.
    pub accepting: u64,
    /// The states that may follow this one.
    pub successors: Vec<usize>,
}

/// A generalized Büchi automaton; `sets` acceptance sets (at most 64).
#[derive(Clone, Debug)]
pub(crate) struct Automaton {
    pub states: Vec<AutomatonState>,
    pub sets: usize,
}

/// A node under construction: `incoming` holds 0 for "initial" and k + 1 for
/// the finished node k.
#[derive(Clone)]
struct Pending {
    incoming: BTreeSet<usize>,
    new: BTreeSet<FormulaId>,
    old: BTreeSet<FormulaId>,
    next: BTreeSet<FormulaId>,
}

/// The automaton accepting exactly the words satisfying `root`; `None` when
/// the formula has more than 64 `Until` subformulas.
pub(crate) fn automaton(formulas: &Formulas, root: FormulaId) -> Option<Automaton> {
    let finished = tableau(formulas, root);
    let untils: Vec<(FormulaId, FormulaId)> = (0..formulas.nodes.len())
        .filter_map(|id| match formulas.nodes[id] {
            Nnf::Until(_, b) => Some((id, b)),
            _ => None,
        })
        .collect();
    if untils.len() > 64 {
        return None;
    }
    let mut states: Vec<AutomatonState> = finished
        .iter()
        .map(|node| {
            let mut accepting = 0u64;
            for (k, &(until, b)) in untils.iter().enumerate() {
                if node.old.contains(&b) || !node.old.contains(&until) {
                    accepting |= 1 << k;
                }
            }
            let literals = node
                .old
                .iter()
                .filter_map(|&f| match formulas.nodes[f] {
                    Nnf::Literal(a, p) => Some((a, p)),
                    _ => None,
                })
                .collect();
            AutomatonState {
                initial: node.incoming.contains(&0),
                literals,
                accepting,
                successors: Vec::new(),
            }
        })
        .collect();
    for (m, node) in finished.iter().enumerate() {
        for &from in &node.incoming {
            if from > 0 {
                states[from - 1].successors.push(m);
            }
        }
    }
    Some(Automaton {
        states,
        sets: untils.len(),
    })
}

fn tableau(formulas: &Formulas, root: FormulaId) -> Vec<Pending> {
    let mut finished: Vec<Pending> = Vec::new();
    let mut work = vec![Pending {
        incoming: BTreeSet::from([0]),
        new: BTreeSet::from([root]),
        old: BTreeSet::new(),
        next: BTreeSet::new(),
    }];
    let contradicts = |old: &BTreeSet<FormulaId>, a: usize, p: bool| {
        old.iter()
            .any(|&g| formulas.nodes[g] == Nnf::Literal(a, !p))
    };
    while let Some(mut node) = work.pop() {
        let Some(eta) = node.new.pop_first() else {
            match finished
                .iter_mut()
                .find(|f| f.old == node.old && f.next == node.next)
            {
                Some(f) => f.incoming.extend(node.incoming),
                None => {
                    let id = finished.len() + 1;
                    work.push(Pending {
                        incoming: BTreeSet::from([id]),
                        new: node.next.clone(),
                        old: BTreeSet::new(),
                        next: BTreeSet::new(),
                    });
                    finished.push(node);
                }
            }
            continue;
        };
        if node.old.contains(&eta) {
            work.push(node);
            continue;
        }
        let add_new = |node: &mut Pending, f: FormulaId| {
            if !node.old.contains(&f) {
                node.new.insert(f);
            }
        };
        match formulas.nodes[eta] {
            Nnf::False => {}
            Nnf::True => {
                node.old.insert(eta);
                work.push(node);
            }
            Nnf::Literal(a, p) => {
                if !contradicts(&node.old, a, p) {
                    node.old.insert(eta);
                    work.push(node);
                }
            }
            Nnf::And(x, y) => {
                add_new(&mut node, x);
                add_new(&mut node, y);
                node.old.insert(eta);
                work.push(node);
            }
            Nnf::Next(x) => {
                node.old.insert(eta);
                node.next.insert(x);
                work.push(node);
            }
            Nnf::Or(x, y) | Nnf::Until(x, y) | Nnf::Release(x, y) => {
                node.old.insert(eta);
                let mut first = node.clone();
                let mut second = node;
                match formulas.nodes[eta] {
                    Nnf::Or(..) => {
                        add_new(&mut first, x);
                        add_new(&mut second, y);
                    }
                    Nnf::Until(..) => {
                        // x now and x U y next, or y now
                        add_new(&mut first, x);
                        first.next.insert(eta);
                        add_new(&mut second, y);
                    }
                    _ => {
                        // y now and x R y next, or x and y now
                        add_new(&mut first, y);
                        first.next.insert(eta);
                        add_new(&mut second, x);
                        add_new(&mut second, y);
                    }
                }
                work.push(first);
                work.push(second);
            }
        }
    }
    finished
}

#[cfg(test)]
mod tests {
    //! The automaton checked against the formula's meaning on lassos: random
    //! formulas over two atoms, random ultimately periodic words, and a direct
    //! evaluation of the formula on the lasso.
    use super::*;
    use tass_model::api::{Expr, Span};

    /// Atom 0 is the expression `true`, atom 1 `!true`: two distinct
    /// expressions, given truth values by the word, not by their meaning.
    fn atom(k: usize) -> LtlFormula {
        let e = Expr::true_at(Span::synthetic());
        LtlFormula::Atom(LtlAtom::Condition(if k == 0 { e } else { e.negated() }))
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn random_formula(r: &mut Rng, depth: u32) -> LtlFormula {
        use LtlFormula as L;
        let b = Box::new;
        if depth == 0 || r.next(4) == 0 {
            return match r.next(5) {
                0 => L::Constant(r.next(2) == 0),
                k => atom((k % 2) as usize),
            };
        }
        let d = depth - 1;
        match r.next(12) {
            0 => L::Not(b(random_formula(r, d))),
            1 => L::And(b(random_formula(r, d)), b(random_formula(r, d))),
            2 => L::Or(b(random_formula(r, d)), b(random_formula(r, d))),
            3 => L::Implies(b(random_formula(r, d)), b(random_formula(r, d))),
            4 => L::Iff(b(random_formula(r, d)), b(random_formula(r, d))),
            5 => L::Next(b(random_formula(r, d))),
            6 => L::Always(b(random_formula(r, d))),
            7 => L::Eventually(b(random_formula(r, d))),
            8 => L::Until(b(random_formula(r, d)), b(random_formula(r, d))),
            9 => L::Release(b(random_formula(r, d)), b(random_formula(r, d))),
            _ => L::WeakUntil(b(random_formula(r, d)), b(random_formula(r, d))),
        }
    }

    /// Position `i` of the lasso `word` (letters: bit k = atom k), whose loop
    /// starts at `loop_start`.
    fn holds(f: &LtlFormula, word: &[u8], loop_start: usize, i: usize) -> bool {
        use LtlFormula as L;
        let n = word.len();
        let succ = |i: usize| if i + 1 < n { i + 1 } else { loop_start };
        // positions from i on, until they repeat: enough for U and R
        let future = || {
            let mut seen = vec![false; n];
            let mut out = Vec::new();
            let mut j = i;
            while !seen[j] {
                seen[j] = true;
                out.push(j);
                j = succ(j);
            }
            out
        };
        match f {
            L::Constant(b) => *b,
            L::Atom(LtlAtom::Condition(e)) => {
                let k = if e.is_true() { 0 } else { 1 };
                word[i] & (1 << k) != 0
            }
            L::Atom(_) => unreachable!(),
            L::Not(g) => !holds(g, word, loop_start, i),
            L::And(a, b) => holds(a, word, loop_start, i) && holds(b, word, loop_start, i),
            L::Or(a, b) => holds(a, word, loop_start, i) || holds(b, word, loop_start, i),
            L::Implies(a, b) => !holds(a, word, loop_start, i) || holds(b, word, loop_start, i),
            L::Iff(a, b) => holds(a, word, loop_start, i) == holds(b, word, loop_start, i),
            L::Next(g) => holds(g, word, loop_start, succ(i)),
            L::Always(g) => future().iter().all(|&j| holds(g, word, loop_start, j)),
            L::Eventually(g) => future().iter().any(|&j| holds(g, word, loop_start, j)),
            L::Until(a, b) => {
                for j in future() {
                    if holds(b, word, loop_start, j) {
                        return true;
                    }
                    if !holds(a, word, loop_start, j) {
                        return false;
                    }
                }
                false
            }
            L::Release(a, b) => {
                for j in future() {
                    if !holds(b, word, loop_start, j) {
                        return false;
                    }
                    if holds(a, word, loop_start, j) {
                        return true;
                    }
                }
                true
            }
            L::WeakUntil(a, b) => {
                for j in future() {
                    if holds(b, word, loop_start, j) {
                        return true;
                    }
                    if !holds(a, word, loop_start, j) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// Whether the automaton accepts the lasso word: a fair-cycle search in
    /// the product of the automaton with the word's positions.
    fn accepts(aut: &Automaton, atoms: &[LtlAtom], word: &[u8], loop_start: usize) -> bool {
        use tass_search::api::{find_fair_lasso, Fairness, LassoGraph};
        let n = word.len();
        let letter_ok = |q: usize, i: usize| {
            aut.states[q].literals.iter().all(|&(a, p)| {
                let LtlAtom::Condition(e) = &atoms[a] else {
                    return false;
                };
                let k = if e.is_true() { 0 } else { 1 };
                (word[i] & (1 << k) != 0) == p
            })
        };
        let mut g = LassoGraph::default();
        let id = |q: usize, i: usize| q * n + i;
        for q in 0..aut.states.len() {
            for i in 0..n {
                let accepting = if letter_ok(q, i) {
                    aut.states[q].accepting
                } else {
                    0
                };
                g.add_node(accepting, 0);
            }
        }
        for q in 0..aut.states.len() {
            for i in 0..n {
                if !letter_ok(q, i) {
                    continue;
                }
                if i == 0 && aut.states[q].initial {
                    g.initial.push(id(q, i));
                }
                let j = if i + 1 < n { i + 1 } else { loop_start };
                for &r in &aut.states[q].successors {
                    if letter_ok(r, j) {
                        g.edges[id(q, i)].push((id(r, j), 0));
                    }
                }
            }
        }
        let all = if aut.sets == 0 {
            0
        } else {
            (1u64 << aut.sets) - 1
        };
        find_fair_lasso(&g, all, 0, Fairness::None).is_some()
    }

    #[test]
    fn the_automaton_agrees_with_the_formula_on_random_lassos() {
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..300 {
            let f = random_formula(&mut r, 3);
            for negated in [false, true] {
                let mut formulas = Formulas::default();
                let root = formulas.nnf(&f, negated);
                let aut = automaton(&formulas, root).expect("few untils");
                for _ in 0..12 {
                    let n = 1 + r.next(5) as usize;
                    let word: Vec<u8> = (0..n).map(|_| r.next(4) as u8).collect();
                    let loop_start = r.next(n as u64) as usize;
                    let expected = holds(&f, &word, loop_start, 0) != negated;
                    let got = accepts(&aut, &formulas.atoms, &word, loop_start);
                    assert_eq!(
                        got, expected,
                        "{f:?} negated {negated} on {word:?} loop {loop_start}"
                    );
                }
            }
        }
    }
}
