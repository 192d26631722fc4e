//! A cheap search for a concrete counterexample by evaluation at a few points.
//!
//! Evaluating `assumption` true and `predicate` false at concrete values *is* a
//! refutation of validity, with those values as the model; failing to find one
//! proves nothing.

use std::sync::Arc;

use hashbrown::HashSet;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{FromPrimitive, One, ToPrimitive, Zero};
use tass_symbolic::api::{Assignment, BitOp, Expr, ExprFactory, ExprView, RelOp, Type, Value};

use crate::model::{Model, ModelValue};

mod polynomial;

/// Most distinct candidate numbers collected from the formulas.
const MAX_CANDIDATES: usize = 24;

fn candidates(f: &ExprFactory, exprs: &[Expr]) -> Vec<BigRational> {
    let mut out: Vec<BigRational> = [0i64, 1, -1, 2, -2, 3, 10, -10]
        .iter()
        .map(|&v| BigRational::from_integer(v.into()))
        .collect();
    let mut seen: HashSet<BigRational> = out.iter().cloned().collect();
    for &e in exprs {
        for clause in f.cnf_clauses(e) {
            for lit in clause {
                let g = match f.view(lit) {
                    ExprView::Rel(_, g) => g,
                    ExprView::Not(x) => match f.view(x) {
                        ExprView::Rel(_, g) => g,
                        _ => continue,
                    },
                    _ => continue,
                };
                let terms = f.poly_terms(g);
                // The boundary of `a*x + c op 0` is x = -c/a.
                let constant = terms
                    .iter()
                    .find(|(_, m)| f.as_concrete_rational(*m).is_some())
                    .map(|(c, _)| c.clone())
                    .unwrap_or_else(BigRational::zero);
                let lead = terms
                    .iter()
                    .find(|(_, m)| f.as_concrete_rational(*m).is_none())
                    .map(|(c, _)| c.clone())
                    .unwrap_or_else(BigRational::one);
                let b = -(constant / lead);
                for v in [b.clone(), &b + BigRational::one(), &b - BigRational::one()] {
                    if out.len() < MAX_CANDIDATES && seen.insert(v.clone()) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// Looks for values making `assumption` true and `predicate` false: first
/// `tries` assignments from the candidate pool (every constant at the same
/// candidate, then pseudo-random mixes), then a local search that repairs one
/// false clause at a time. Applications of uninterpreted functions are given
/// values of their own (each application term a slot, as if it were a
/// constant); a point counts only when the functions' tables built from those
/// slots are consistent, which the final evaluation of the original formulas
/// checks.
pub(crate) fn search(
    f: &ExprFactory,
    recent: &RecentWitnesses,
    assumption: Expr,
    predicate: Expr,
    reduced: Option<Reduced<'_>>,
    tries: usize,
) -> Option<Model> {
    // The reduced form only where the original cannot be searched (it reads
    // an array literal at a symbolic index, say): otherwise the original is
    // as good and needs no conversion.
    let problem = match Problem::new(f, assumption, predicate, None) {
        Some(problem) => problem,
        None => Problem::new(f, assumption, predicate, reduced)?,
    };
    // The local search starts from the most recent witness: a refuted
    // neighbour query usually differs in a clause or two.
    let start = recent.latest().map(|w| problem.values_at(&w.assignment));
    let witness = problem
        .sample(tries)
        .or_else(|| problem.local_search(tries, start))?;
    let model = witness.model.clone();
    recent.remember(witness);
    Some(model)
}

/// An equivalent, simpler form of a query for the search to work on: the
/// simplifier's reduced assumption (constants of known value eliminated), the
/// predicate simplified under the assumption, and the eliminated constants with
/// their values (put back into every point). Array reads at indices those
/// constants fix become plain element reads, which the search can give values.
/// Points are confirmed exactly on this form, which is equivalent: the reduced
/// assumption with the eliminated constants at their values holds exactly
/// where the assumption does, and there the simplified predicate equals the
/// predicate (the simplifier's contract, which `decide` relies on for "valid"
/// answers too).
pub(crate) struct Reduced<'a> {
    pub assumption: Expr,
    pub predicate: Expr,
    pub eliminated: &'a [(Expr, Expr)],
}

/// A point refuting a query: the assignment it was checked with (constants,
/// array elements, function tables) and the model of the query's constants.
struct Witness {
    assignment: Assignment,
    model: Model,
    /// Conjuncts of assumptions already evaluated at this point, with their
    /// truth: a path condition repeats its parent's conjuncts.
    conjuncts: parking_lot::Mutex<hashbrown::HashMap<Expr, bool>>,
}

/// Most conjunct truths a witness remembers.
const MAX_CONJUNCTS: usize = 4_096;

impl Witness {
    fn new(assignment: Assignment, model: Model) -> Witness {
        Witness {
            assignment,
            model,
            conjuncts: Default::default(),
        }
    }

    /// Whether `assumption` is true here (exactly), conjunct by conjunct.
    fn satisfies(&self, f: &ExprFactory, assumption: Expr) -> bool {
        let conjuncts = match f.view(assumption) {
            ExprView::And(xs) => xs,
            _ => vec![assumption],
        };
        for c in conjuncts {
            if let Some(&known) = self.conjuncts.lock().get(&c) {
                if !known {
                    return false;
                }
                continue;
            }
            let holds = f.eval_bool(c, &self.assignment) == Ok(true);
            let mut known = self.conjuncts.lock();
            if known.len() >= MAX_CONJUNCTS {
                known.clear();
            }
            known.insert(c, holds);
            if !holds {
                return false;
            }
        }
        true
    }
}

/// How many recent witnesses are kept.
const RECENT_WITNESSES: usize = 4;

/// The last few witnesses found, tried first on new queries. Path conditions
/// grow a clause at a time, so a point that satisfied a parent's path condition
/// often satisfies the child's; trying it is an exact evaluation, far cheaper
/// than analysing the new condition. A point counts only if it makes the new
/// assumption true and the new predicate false, evaluated exactly with every
/// constant, element and function application the new query reads defined.
#[derive(Default)]
pub(crate) struct RecentWitnesses {
    points: parking_lot::Mutex<std::collections::VecDeque<Arc<Witness>>>,
}

impl RecentWitnesses {
    /// A model refuting `assumption => predicate` at one of the recent points.
    pub(crate) fn refute(
        &self,
        f: &ExprFactory,
        assumption: Expr,
        predicate: Expr,
    ) -> Option<Model> {
        let points: Vec<Arc<Witness>> = self.points.lock().iter().cloned().collect();
        let mut constants: Option<Vec<Expr>> = None;
        for (k, w) in points.iter().enumerate() {
            let asg = &w.assignment;
            if f.eval_bool(predicate, asg) != Ok(false) || !w.satisfies(f, assumption) {
                continue;
            }
            let constants = constants.get_or_insert_with(|| {
                let mut syms = f.free_symbols(assumption);
                syms.extend(f.free_symbols(predicate));
                syms.into_iter()
                    .filter(|&s| is_scalar(&f.type_of(s)))
                    .collect()
            });
            let Some(model) = model_of(f, asg, constants) else {
                continue;
            };
            if k > 0 {
                // Most recently useful first.
                let mut recent = self.points.lock();
                if let Some(at) = recent.iter().position(|p| Arc::ptr_eq(p, w)) {
                    let hit = recent.remove(at).expect("position is in range");
                    recent.push_front(hit);
                }
            }
            return Some(model);
        }
        None
    }

    fn latest(&self) -> Option<Arc<Witness>> {
        self.points.lock().front().cloned()
    }

    fn remember(&self, witness: Witness) {
        let mut recent = self.points.lock();
        recent.push_front(Arc::new(witness));
        recent.truncate(RECENT_WITNESSES);
    }
}

/// A concrete number or truth value as a value.
fn number_value(f: &ExprFactory, e: Expr) -> Option<Value> {
    match f.type_of(e) {
        Type::Int => f.as_concrete_int(e).map(Value::Int),
        Type::Real => f.as_concrete_rational(e).map(Value::Real),
        Type::Bool => f.as_bool(e).map(Value::Bool),
        _ => None,
    }
}

/// The values of `constants` under `asg`, as a model (`None` if one is missing
/// or not a scalar).
fn model_of(f: &ExprFactory, asg: &Assignment, constants: &[Expr]) -> Option<Model> {
    let mut model = Model::new();
    for &v in constants {
        let name = f.symbol_name(v).map(|n| n.to_string()).unwrap_or_default();
        let mv = match asg.get(v)? {
            Value::Bool(b) => ModelValue::Bool(*b),
            Value::Int(i) => ModelValue::Int(i.clone()),
            Value::Char(c) => ModelValue::Int((*c).into()),
            Value::Real(q) => ModelValue::Real(q.clone()),
            _ => return None,
        };
        model.insert(name, mv);
    }
    Some(model)
}

/// Adds the elements of input arrays the witness read (`a[0]`, `g[1][2]`) to
/// `model`: the values the confirmed point gave them (the array's other elements
/// were at 0 in that point).
fn add_array_elements(
    f: &ExprFactory,
    model: &mut Model,
    arrays: &hashbrown::HashMap<Expr, Vec<(Vec<usize>, Value)>>,
) {
    for (&array, entries) in arrays {
        let Some(name) = f.symbol_name(array) else {
            continue;
        };
        for (path, value) in entries {
            let mv = match value {
                Value::Bool(b) => ModelValue::Bool(*b),
                Value::Int(i) => ModelValue::Int(i.clone()),
                Value::Char(c) => ModelValue::Int((*c).into()),
                Value::Real(q) => ModelValue::Real(q.clone()),
                _ => continue,
            };
            let indices: String = path.iter().map(|i| format!("[{i}]")).collect();
            model.insert(format!("{name}{indices}"), mv);
        }
    }
}

/// One witness question: the constants, the application slots and the clauses
/// of `assumption && !predicate` with every application replaced by its slot.
struct Problem<'f> {
    f: &'f ExprFactory,
    /// The original query.
    assumption: Expr,
    predicate: Expr,
    /// Constants the reduction eliminated, with their values.
    fixed: Vec<(Expr, Value)>,
    /// The reduced query searched instead, if any (points are then confirmed
    /// on it, else on the original).
    searched: Option<(Expr, Expr)>,
    /// The formulas' scalar constants, then the applications (shallowest
    /// first), each a variable of the search.
    vars: Vec<Expr>,
    /// How many of `vars` are constants (the rest are applications).
    constants: usize,
    /// The clauses of the goal, compiled with applications as variables.
    clauses: Vec<Vec<Approx>>,
    /// For each var, the clauses it occurs in.
    occurs_in: Vec<Vec<usize>>,
    pool: Vec<BigRational>,
    ints: Vec<BigRational>,
}

fn is_scalar(ty: &Type) -> bool {
    matches!(ty, Type::Bool | Type::Int | Type::Real | Type::Char)
}

impl<'f> Problem<'f> {
    fn new(
        f: &'f ExprFactory,
        assumption: Expr,
        predicate: Expr,
        reduced: Option<Reduced<'_>>,
    ) -> Option<Problem<'f>> {
        // Search the reduced form when every eliminated value is a number.
        let reduced = reduced.and_then(|r| {
            let fixed: Option<Vec<(Expr, Value)>> = r
                .eliminated
                .iter()
                .map(|&(x, v)| Some((x, number_value(f, v)?)))
                .collect();
            Some((r.assumption, r.predicate, fixed?))
        });
        let searched = reduced.as_ref().map(|(a, p, _)| (*a, *p));
        let (searched_assumption, searched_predicate, fixed) =
            reduced.unwrap_or((assumption, predicate, Vec::new()));
        let goal = f.and(searched_assumption, f.not(searched_predicate));
        if f.as_bool(goal) == Some(false) {
            return None;
        }
        let mut apps = Vec::new();
        collect_applications(f, goal, &mut apps, &mut HashSet::new())?;
        apps.sort_by_key(|&a| f.depth(a));
        let mut vars = Vec::new();
        let mut seen = HashSet::new();
        for s in f.free_symbols(goal) {
            match f.type_of(s) {
                ty if is_scalar(&ty) => {
                    if seen.insert(s) {
                        vars.push(s);
                    }
                }
                // Functions and arrays are read through their applications'
                // and elements' slots (the reserved bitwise functions evaluate
                // without an interpretation).
                Type::Function(..) | Type::Array(..) => {}
                _ => return None,
            }
        }
        let constants = vars.len();
        vars.extend(apps);
        // Each constant and each application is a variable of the search: the
        // clauses are compiled with applications read as their own slots.
        let index: hashbrown::HashMap<Expr, usize> =
            vars.iter().enumerate().map(|(k, &v)| (v, k)).collect();
        let clauses: Vec<Vec<Approx>> = f
            .cnf_clauses(goal)
            .iter()
            .map(|clause| {
                clause
                    .iter()
                    .map(|&lit| compile(f, lit, &index, &mut APPROX_BUDGET.clone()))
                    .collect()
            })
            .collect();
        let mut occurs_in = vec![Vec::new(); vars.len()];
        for (c, clause) in clauses.iter().enumerate() {
            let mut mentioned = Vec::new();
            for lit in clause {
                lit.variables(&mut mentioned);
            }
            mentioned.sort_unstable();
            mentioned.dedup();
            for k in mentioned {
                occurs_in[k].push(c);
            }
        }
        let mut pool = candidates(f, &[searched_assumption, searched_predicate]);
        for (n, d) in [
            (1, 2),
            (-1, 2),
            (1, 10),
            (-1, 10),
            (100, 1),
            (1000, 1),
            (1, 1000),
            (1, 1_000_000),
        ] {
            let q = BigRational::new(BigInt::from(n), BigInt::from(d));
            if !pool.contains(&q) {
                pool.push(q);
            }
        }
        let ints = pool.iter().filter(|q| q.is_integer()).cloned().collect();
        Some(Problem {
            f,
            assumption,
            predicate,
            fixed,
            searched,
            vars,
            constants,
            clauses,
            occurs_in,
            pool,
            ints,
        })
    }

    /// The value of candidate number `k` for a variable of type `ty`.
    fn value(&self, ty: &Type, k: usize) -> Value {
        match ty {
            Type::Bool => Value::Bool(k % 2 == 1),
            Type::Int => Value::Int(self.ints[k % self.ints.len()].to_integer()),
            Type::Char => {
                let i = self.ints[k % self.ints.len()].to_integer();
                Value::Char(u32::try_from(i).unwrap_or(0))
            }
            _ => Value::Real(self.pool[k % self.pool.len()].clone()),
        }
    }

    /// How many candidate values a variable of type `ty` has.
    fn choices(&self, ty: &Type) -> usize {
        match ty {
            Type::Bool => 2,
            Type::Int | Type::Char => self.ints.len(),
            _ => self.pool.len(),
        }
    }

    /// Whether clause `c` holds at `point` (in floating point: the search
    /// only uses it to choose moves; `confirm` decides exactly).
    fn clause_holds(&self, c: usize, point: &[f64]) -> bool {
        self.clauses[c]
            .iter()
            .any(|lit| lit.eval(point) == Some(1.0))
    }

    fn point(&self, values: &[Value]) -> Vec<f64> {
        values.iter().map(value_to_f64).collect()
    }

    /// The witness at `values` if the searched formulas (the reduced ones, else
    /// the original), read with the function tables the slots define and the
    /// eliminated constants at their values, make the assumption true and the
    /// predicate false.
    fn confirm(&self, values: &[Value]) -> Option<Witness> {
        let f = self.f;
        let mut asg = Assignment::new();
        for (v, x) in &self.fixed {
            asg.set(*v, x.clone());
        }
        for (&v, x) in self.vars[..self.constants].iter().zip(values) {
            asg.set(v, x.clone());
        }
        // Tables, shallowest application first (its arguments may read
        // shallower ones); the first slot for a point wins.
        let mut tables: hashbrown::HashMap<Expr, hashbrown::HashMap<Vec<Value>, Value>> =
            hashbrown::HashMap::new();
        let mut arrays: hashbrown::HashMap<Expr, Vec<(Vec<usize>, Value)>> =
            hashbrown::HashMap::new();
        for (k, &app) in self.vars[self.constants..].iter().enumerate() {
            let value = &values[self.constants + k];
            if let Some((array, indices)) = array_read(f, app) {
                let mut path = Vec::with_capacity(indices.len());
                for i in indices {
                    match f.eval(i, &asg).ok()? {
                        Value::Int(i) => path.push(usize::try_from(i).ok()?),
                        _ => return None,
                    }
                }
                let entries = arrays.entry(array).or_default();
                if !entries.iter().any(|(p, _)| *p == path) {
                    entries.push((path, value.clone()));
                }
                let default = match value {
                    Value::Int(_) => Value::Int(0.into()),
                    Value::Bool(_) => Value::Bool(false),
                    Value::Char(_) => Value::Char(0),
                    _ => Value::Real(BigRational::zero()),
                };
                asg.set(array, array_value(entries, 0, &default));
                continue;
            }
            let ExprView::Apply(function, args) = f.view(app) else {
                return None;
            };
            let mut point = Vec::with_capacity(args.len());
            for a in args {
                point.push(f.eval(a, &asg).ok()?);
            }
            tables
                .entry(function)
                .or_default()
                .entry(point)
                .or_insert_with(|| values[self.constants + k].clone());
            let table = Arc::new(tables[&function].clone());
            asg.set_function(
                function,
                Arc::new(move |xs: &[Value]| table.get(xs).cloned()),
            );
        }
        let refutes = |assumption: Expr, predicate: Expr| {
            f.eval_bool(assumption, &asg) == Ok(true) && f.eval_bool(predicate, &asg) == Ok(false)
        };
        // The reduced query if there is one (smaller, and evaluable where the
        // original reads an array literal at a symbolic index), else the
        // original: the reduced assumption with the eliminated constants at
        // their values is equivalent to the assumption, and the simplified
        // predicate equals the predicate wherever the assumption holds.
        let (assumption, predicate) = self.searched.unwrap_or((self.assumption, self.predicate));
        if !refutes(assumption, predicate) {
            return None;
        }
        let constants: Vec<Expr> = self.vars[..self.constants]
            .iter()
            .copied()
            .chain(self.fixed.iter().map(|(v, _)| *v))
            .collect();
        let mut model = model_of(f, &asg, &constants)?;
        add_array_elements(f, &mut model, &arrays);
        Some(Witness::new(asg, model))
    }

    /// The values of the search's variables at `asg` (a variable it leaves
    /// undefined, or gives a value of another type, at candidate 0).
    fn values_at(&self, asg: &Assignment) -> Vec<Value> {
        self.vars
            .iter()
            .map(|&v| {
                let ty = self.f.type_of(v);
                let fallback = self.value(&ty, 0);
                match self.f.eval(v, asg) {
                    Ok(x) if std::mem::discriminant(&x) == std::mem::discriminant(&fallback) => x,
                    _ => fallback,
                }
            })
            .collect()
    }

    /// `tries` points: first every variable at the same candidate, then
    /// pseudo-random mixes.
    fn sample(&self, tries: usize) -> Option<Witness> {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for attempt in 0..tries {
            let values: Vec<Value> = self
                .vars
                .iter()
                .enumerate()
                .map(|(j, &v)| {
                    let ty = self.f.type_of(v);
                    let len = self.choices(&ty);
                    let k = if attempt < len.min(12) {
                        attempt % len
                    } else {
                        next_random(&mut state, j as u64) % len
                    };
                    self.value(&ty, k)
                })
                .collect();
            let point = self.point(&values);
            if (0..self.clauses.len()).all(|c| self.clause_holds(c, &point)) {
                if let Some(model) = self.confirm(&values) {
                    return Some(model);
                }
            }
            if self.vars.is_empty() {
                break;
            }
        }
        None
    }

    /// A value for variable `k` (of type `ty`) that makes every clause `k`
    /// occurs in true, when those clauses, with the other variables fixed at
    /// `point`, bound `k` linearly: each clause not already true through a
    /// literal without `k` must have one literal with `k`, a relation whose
    /// side is linear in `k` (checked at three points, in floating point);
    /// the bounds are intersected and a short decimal inside is chosen.
    /// `None` when a clause is not of that form or the bounds conflict. A
    /// heuristic: the move is scored, and the point confirmed, like any other.
    fn solved_value(&self, k: usize, ty: &Type, point: &mut [f64]) -> Option<Value> {
        if !matches!(ty, Type::Int | Type::Real) {
            return None;
        }
        let saved = point[k];
        let mut range = Range::default();
        let mut feasible = true;
        'clauses: for &d in &self.occurs_in[k] {
            let mut with_k = None;
            for lit in &self.clauses[d] {
                let mut vars = Vec::new();
                lit.variables(&mut vars);
                if !vars.contains(&k) {
                    if lit.eval(point) == Some(1.0) {
                        continue 'clauses;
                    }
                } else if with_k.replace(lit).is_some() {
                    feasible = false; // two literals with `k`: not handled
                    break 'clauses;
                }
            }
            let Some(lit) = with_k else { continue };
            let Some((op, side)) = lit.relation() else {
                feasible = false;
                break;
            };
            let mut at = |x: f64| {
                point[k] = x;
                side.eval(point)
            };
            let (Some(v0), Some(v1), Some(v2)) = (at(0.0), at(1.0), at(2.0)) else {
                feasible = false;
                break;
            };
            let scale = 1.0 + v0.abs() + v1.abs() + v2.abs();
            if (v2 - 2.0 * v1 + v0).abs() > 1e-9 * scale {
                feasible = false; // not linear in `k`
                break;
            }
            if !range.add(op, v1 - v0, v0) {
                feasible = false;
                break;
            }
        }
        point[k] = saved;
        if !feasible {
            return None;
        }
        range.choose(*ty == Type::Int)
    }

    /// A WalkSAT-style search over the candidate values: from `start` (else all
    /// zeros), pick a false clause and give one of its variables the candidate
    /// that makes the most clauses true (now and then a random one instead),
    /// for at most `4 * tries` moves.
    fn local_search(&self, tries: usize, start: Option<Vec<Value>>) -> Option<Witness> {
        if self.vars.is_empty() || self.clauses.is_empty() {
            return None;
        }
        let types: Vec<Type> = self.vars.iter().map(|&v| self.f.type_of(v)).collect();
        let mut values: Vec<Value> =
            start.unwrap_or_else(|| types.iter().map(|ty| self.value(ty, 0)).collect());
        let mut point = self.point(&values);
        let mut holds: Vec<bool> = (0..self.clauses.len())
            .map(|c| self.clause_holds(c, &point))
            .collect();
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..4 * tries {
            let false_clauses: Vec<usize> = (0..holds.len()).filter(|&c| !holds[c]).collect();
            if false_clauses.is_empty() {
                return self.confirm(&values);
            }
            let c = false_clauses[next_random(&mut state, 1) % false_clauses.len()];
            // The clause's variables, the ones in fewest clauses first: a
            // move on them breaks least, and the first move that makes this
            // clause true and breaks none is taken at once.
            let mut in_clause: Vec<usize> = (0..self.vars.len())
                .filter(|&k| self.occurs_in[k].contains(&c))
                .collect();
            if in_clause.is_empty() {
                return None; // a clause false whatever the variables: no point
            }
            in_clause.sort_by_key(|&k| self.occurs_in[k].len());
            let mut best: Option<(i64, usize, Value)> = None;
            if next_random(&mut state, 2).is_multiple_of(5) {
                let k = in_clause[next_random(&mut state, 3) % in_clause.len()];
                let choice = next_random(&mut state, 4) % self.choices(&types[k]);
                best = Some((0, k, self.value(&types[k], choice)));
            } else {
                // First every variable's value solved from the bounds its
                // clauses give it (cheap, and often a repair at once), then
                // the candidate pool.
                'vars: for (pass, &k) in [0, 1]
                    .into_iter()
                    .flat_map(|pass| in_clause.iter().map(move |k| (pass, k)))
                {
                    let candidates: Vec<Value> = if pass == 0 {
                        self.solved_value(k, &types[k], &mut point)
                            .into_iter()
                            .collect()
                    } else {
                        (0..self.choices(&types[k]))
                            .map(|choice| self.value(&types[k], choice))
                            .collect()
                    };
                    for candidate in candidates {
                        if candidate == values[k] {
                            continue;
                        }
                        point[k] = value_to_f64(&candidate);
                        let (mut gain, mut broken) = (0i64, false);
                        for &d in &self.occurs_in[k] {
                            let now = self.clause_holds(d, &point);
                            gain += i64::from(now) - i64::from(holds[d]);
                            broken |= holds[d] && !now;
                        }
                        let repairs = !broken && self.clause_holds(c, &point);
                        if repairs || best.as_ref().is_none_or(|(g, _, _)| gain > *g) {
                            best = Some((gain, k, candidate));
                        }
                        if repairs {
                            point[k] = value_to_f64(&values[k]);
                            break 'vars;
                        }
                    }
                    point[k] = value_to_f64(&values[k]);
                }
            }
            let (_, k, value) = best?;
            point[k] = value_to_f64(&value);
            values[k] = value;
            for &d in &self.occurs_in[k] {
                holds[d] = self.clause_holds(d, &point);
            }
        }
        None
    }
}

/// The values a variable may take, from linear constraints `a*x + b op 0`.
#[derive(Default)]
struct Range {
    /// Lower bound and whether it is strict.
    lower: Option<(f64, bool)>,
    upper: Option<(f64, bool)>,
    excluded: Vec<f64>,
}

impl Range {
    /// Adds `a*x + b op 0`; `false` if it cannot hold (`a` is zero and it is
    /// false) or is not a usable bound.
    fn add(&mut self, op: RelOp, a: f64, b: f64) -> bool {
        if !a.is_finite() || !b.is_finite() {
            return false;
        }
        if a == 0.0 {
            return rel_holds(op, b);
        }
        let root = -b / a;
        match op {
            RelOp::Ne => self.excluded.push(root),
            RelOp::Eq => {
                self.tighten_lower(root, false);
                self.tighten_upper(root, false);
            }
            RelOp::Gt | RelOp::Ge => {
                let strict = op == RelOp::Gt;
                if a > 0.0 {
                    self.tighten_lower(root, strict);
                } else {
                    self.tighten_upper(root, strict);
                }
            }
        }
        true
    }

    fn tighten_lower(&mut self, v: f64, strict: bool) {
        match self.lower {
            Some((l, s)) if l > v || (l == v && s) => {}
            _ => self.lower = Some((v, strict)),
        }
    }

    fn tighten_upper(&mut self, v: f64, strict: bool) {
        match self.upper {
            Some((u, s)) if u < v || (u == v && s) => {}
            _ => self.upper = Some((v, strict)),
        }
    }

    fn contains(&self, x: f64) -> bool {
        let above = self
            .lower
            .is_none_or(|(l, strict)| if strict { x > l } else { x >= l });
        let below = self
            .upper
            .is_none_or(|(u, strict)| if strict { x < u } else { x <= u });
        above && below && !self.excluded.contains(&x)
    }

    /// A short number in the range (an integer if `integer`), or `None`.
    fn choose(&self, integer: bool) -> Option<Value> {
        let target = match (self.lower, self.upper) {
            (Some((l, _)), Some((u, _))) => (l + u) / 2.0,
            (Some((l, _)), None) => l + 1.0,
            (None, Some((u, _))) => u - 1.0,
            (None, None) => 0.0,
        };
        if integer {
            // The target rounded, but not below the least integer in range.
            let least = self
                .lower
                .map(|(l, strict)| if strict { l.floor() + 1.0 } else { l.ceil() });
            let start = least.map_or(target.round(), |least| target.round().max(least));
            return (0..4)
                .map(|step| start + f64::from(step))
                .find(|&x| self.contains(x))
                .and_then(BigInt::from_f64)
                .map(Value::Int);
        }
        // The shortest decimal in the range near the target.
        for digits in 0..=12 {
            let scale = 10f64.powi(digits);
            let x = (target * scale).round() / scale;
            if self.contains(x) {
                let q = BigRational::new(
                    BigInt::from_f64((target * scale).round())?,
                    BigInt::from(10u64).pow(digits as u32),
                );
                return Some(Value::Real(q));
            }
        }
        let q = BigRational::from_float(target)?;
        self.contains(target).then_some(Value::Real(q))
    }
}

/// Whether `g op 0` holds.
fn rel_holds(op: RelOp, g: f64) -> bool {
    match op {
        RelOp::Gt => g > 0.0,
        RelOp::Ge => g >= 0.0,
        RelOp::Eq => g == 0.0,
        RelOp::Ne => g != 0.0,
    }
}

/// How many nodes one compiled literal may have (beyond it, the literal is
/// `Unknown` and the search fails on it). The squared change of a Jacobi sweep
/// over a 30 x 4 grid has some 30,000: with 4,096, Laplace with `ny <= 30`
/// sent every branch to an SMT solver, which timed out on it.
const APPROX_BUDGET: u32 = 1 << 16;

fn value_to_f64(v: &Value) -> f64 {
    match v {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Int(i) => i.to_f64().unwrap_or(f64::NAN),
        Value::Real(q) => q.to_f64().unwrap_or(f64::NAN),
        Value::Char(c) => f64::from(*c),
        _ => f64::NAN,
    }
}

/// A formula compiled for fast floating-point evaluation (variables by index).
#[cfg_attr(test, derive(Debug, PartialEq))]
enum Approx {
    Const(f64),
    Var(usize),
    Add(Vec<Approx>),
    Mul(Vec<Approx>),
    Pow(Box<Approx>, i32),
    Div(Box<Approx>, Box<Approx>),
    IntDiv(Box<Approx>, Box<Approx>),
    IntMod(Box<Approx>, Box<Approx>),
    Trunc(Box<Approx>),
    Rel(RelOp, Box<Approx>),
    And(Vec<Approx>),
    Or(Vec<Approx>),
    Not(Box<Approx>),
    Ite(Box<Approx>, Box<Approx>, Box<Approx>),
    /// Not evaluated (arrays, tuples, casts, applications, or too large).
    Unknown,
}

/// Compiles `e` (at most `budget` nodes; the rest is `Unknown`).
fn compile(
    f: &ExprFactory,
    e: Expr,
    index: &hashbrown::HashMap<Expr, usize>,
    budget: &mut u32,
) -> Approx {
    if *budget == 0 {
        return Approx::Unknown;
    }
    *budget -= 1;
    if let Some(&k) = index.get(&e) {
        return Approx::Var(k); // a constant or an application's slot
    }
    if let Some(terms) = f.polynomial_terms(e) {
        let walk = polynomial::PolynomialWalk {
            f,
            index,
            integer: matches!(f.type_ref(e), Type::Int),
        };
        return walk.polynomial(&terms, budget);
    }
    let mut sub = |x: Expr| compile(f, x, index, budget);
    let truth = |b: bool| Approx::Const(f64::from(u8::from(b)));
    let number = |x: Option<f64>| x.map_or(Approx::Unknown, Approx::Const);
    match f.view(e) {
        ExprView::Bool(b) => truth(b),
        ExprView::Int(i) => number(i.to_f64()),
        ExprView::Real(q) => number(q.to_f64()),
        ExprView::Char(c) => Approx::Const(f64::from(c)),
        ExprView::Add(xs) => Approx::Add(xs.into_iter().map(&mut sub).collect()),
        ExprView::Mul(xs) => Approx::Mul(xs.into_iter().map(&mut sub).collect()),
        ExprView::Pow(b, n) => match i32::try_from(n) {
            Ok(n) => Approx::Pow(Box::new(sub(b)), n),
            Err(_) => Approx::Unknown,
        },
        ExprView::Div(a, b) => Approx::Div(Box::new(sub(a)), Box::new(sub(b))),
        ExprView::IntDiv(a, b) => Approx::IntDiv(Box::new(sub(a)), Box::new(sub(b))),
        ExprView::IntMod(a, b) => Approx::IntMod(Box::new(sub(a)), Box::new(sub(b))),
        ExprView::ToReal(a) => sub(a),
        ExprView::ToInt(a) => Approx::Trunc(Box::new(sub(a))),
        ExprView::Rel(op, g) => Approx::Rel(op, Box::new(sub(g))),
        ExprView::And(xs) => Approx::And(xs.into_iter().map(&mut sub).collect()),
        ExprView::Or(xs) => Approx::Or(xs.into_iter().map(&mut sub).collect()),
        ExprView::Not(x) => Approx::Not(Box::new(sub(x))),
        ExprView::Ite(c, a, b) => Approx::Ite(Box::new(sub(c)), Box::new(sub(a)), Box::new(sub(b))),
        _ => Approx::Unknown,
    }
}

impl Approx {
    /// A literal as `side op 0` (a negated relation turned around).
    fn relation(&self) -> Option<(RelOp, Negated<'_>)> {
        match self {
            Approx::Rel(op, side) => Some((*op, Negated(side, false))),
            Approx::Not(x) => match &**x {
                // not (g > 0) is -g >= 0; not (g >= 0) is -g > 0.
                Approx::Rel(RelOp::Gt, side) => Some((RelOp::Ge, Negated(side, true))),
                Approx::Rel(RelOp::Ge, side) => Some((RelOp::Gt, Negated(side, true))),
                Approx::Rel(RelOp::Eq, side) => Some((RelOp::Ne, Negated(side, false))),
                Approx::Rel(RelOp::Ne, side) => Some((RelOp::Eq, Negated(side, false))),
                _ => None,
            },
            _ => None,
        }
    }

    /// Appends the indices of the variables `self` reads.
    fn variables(&self, out: &mut Vec<usize>) {
        match self {
            Approx::Var(k) => out.push(*k),
            Approx::Const(_) | Approx::Unknown => {}
            Approx::Add(xs) | Approx::Mul(xs) | Approx::And(xs) | Approx::Or(xs) => {
                xs.iter().for_each(|x| x.variables(out))
            }
            Approx::Pow(x, _) | Approx::Trunc(x) | Approx::Rel(_, x) | Approx::Not(x) => {
                x.variables(out)
            }
            Approx::Div(a, b) | Approx::IntDiv(a, b) | Approx::IntMod(a, b) => {
                a.variables(out);
                b.variables(out);
            }
            Approx::Ite(c, a, b) => {
                c.variables(out);
                a.variables(out);
                b.variables(out);
            }
        }
    }

    /// The value at `point` (booleans as 0 and 1), `None` where not evaluated
    /// or a real division by zero.
    fn eval(&self, point: &[f64]) -> Option<f64> {
        let truth = |b: bool| f64::from(u8::from(b));
        Some(match self {
            Approx::Const(c) => *c,
            Approx::Var(k) => point[*k],
            Approx::Add(xs) => {
                let mut total = 0.0;
                for x in xs {
                    total += x.eval(point)?;
                }
                total
            }
            Approx::Mul(xs) => {
                let mut product = 1.0;
                for x in xs {
                    product *= x.eval(point)?;
                }
                product
            }
            Approx::Pow(b, n) => b.eval(point)?.powi(*n),
            Approx::Div(a, b) => {
                let (a, b) = (a.eval(point)?, b.eval(point)?);
                if b == 0.0 {
                    return None;
                }
                a / b
            }
            Approx::IntDiv(a, b) => {
                let (a, b) = (a.eval(point)?, b.eval(point)?);
                if b == 0.0 {
                    0.0
                } else {
                    (a / b).trunc()
                }
            }
            Approx::IntMod(a, b) => {
                let (a, b) = (a.eval(point)?, b.eval(point)?);
                if b == 0.0 {
                    a
                } else {
                    a % b
                }
            }
            Approx::Trunc(a) => a.eval(point)?.trunc(),
            Approx::Rel(op, g) => truth(rel_holds(*op, g.eval(point)?)),
            Approx::And(xs) => {
                for x in xs {
                    if x.eval(point)? != 1.0 {
                        return Some(0.0);
                    }
                }
                1.0
            }
            Approx::Or(xs) => {
                let mut any = false;
                for x in xs {
                    any |= x.eval(point)? == 1.0;
                }
                truth(any)
            }
            Approx::Not(x) => truth(x.eval(point)? != 1.0),
            Approx::Ite(c, a, b) => {
                if c.eval(point)? == 1.0 {
                    a.eval(point)?
                } else {
                    b.eval(point)?
                }
            }
            Approx::Unknown => return None,
        })
    }
}

/// A relation's side, negated or not.
struct Negated<'a>(&'a Approx, bool);

impl Negated<'_> {
    fn eval(&self, point: &[f64]) -> Option<f64> {
        let v = self.0.eval(point)?;
        Some(if self.1 { -v } else { v })
    }
}

/// A pseudo-random number (a linear congruential step).
fn next_random(state: &mut u64, salt: u64) -> usize {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407 + salt);
    (*state >> 33) as usize
}

/// The applications of uninterpreted functions in `e` (not the reserved
/// bitwise ones), or `None` when one has a result that is not a scalar or
/// `e` binds variables (quantifiers, array lambdas): a slot cannot stand for
/// an application that reads a bound variable.
fn collect_applications(
    f: &ExprFactory,
    e: Expr,
    out: &mut Vec<Expr>,
    seen: &mut HashSet<Expr>,
) -> Option<()> {
    if !seen.insert(e) {
        return Some(());
    }
    // A polynomial is none of the kinds matched here (its children are its
    // primitives); its view would intern a node per term for nothing.
    let view = (!f.is_polynomial(e)).then(|| f.view(e));
    match view {
        Some(ExprView::Apply(function, _)) => {
            let name = f.symbol_name(function).unwrap_or_default();
            if BitOp::from_function_name(&name).is_none() {
                if !is_scalar(&f.type_of(e)) {
                    return None;
                }
                out.push(e);
            }
        }
        // A scalar element of an input array (`g0[i][j]`) is a slot too.
        Some(ExprView::ArrayRead(..)) if is_scalar(&f.type_of(e)) && array_read(f, e).is_some() => {
            out.push(e)
        }
        Some(ExprView::Quant { .. } | ExprView::ArrayLambda { .. }) => return None,
        _ => {}
    }
    for c in f.children(e) {
        collect_applications(f, c, out, seen)?;
    }
    Some(())
}

/// `e` as a read `a[i1]...[ik]` of an array constant `a`: `(a, [i1, ..., ik])`.
fn array_read(f: &ExprFactory, e: Expr) -> Option<(Expr, Vec<Expr>)> {
    let mut indices = Vec::new();
    let mut at = e;
    while let ExprView::ArrayRead(array, index) = f.view(at) {
        indices.push(index);
        at = array;
    }
    if indices.is_empty() || !matches!(f.view(at), ExprView::Symbol(_)) {
        return None;
    }
    indices.reverse();
    Some((at, indices))
}

/// The nested array value holding `entries` (index path, element) at depth
/// `level`: each level as long as its largest index needs; places no entry
/// names hold `default` (or an empty array above the elements).
fn array_value(entries: &[(Vec<usize>, Value)], level: usize, default: &Value) -> Value {
    let len = entries
        .iter()
        .map(|(path, _)| path[level] + 1)
        .max()
        .unwrap_or(0);
    Value::Array(
        (0..len)
            .map(|k| {
                let here: Vec<(Vec<usize>, Value)> = entries
                    .iter()
                    .filter(|(path, _)| path[level] == k)
                    .cloned()
                    .collect();
                match here.first() {
                    Some((path, v)) if path.len() == level + 1 => v.clone(),
                    Some(_) => array_value(&here, level + 1, default),
                    None if entries.first().is_some_and(|(p, _)| p.len() == level + 1) => {
                        default.clone()
                    }
                    None => Value::Array(Vec::new()),
                }
            })
            .collect(),
    )
}
