//! The [`Engine`] trait over the real execution engine (`tass-state`), the prover
//! set-up, and the entry points `verify` / `compare`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use tass_model::api::{
    BinaryOp, Callee, Expr as ModelExpr, ExprKind, FunctionId, LibraryConstant, LibraryFunction,
    LocationId, LocationKind, Model, Statement, TransitionId, UnaryOp, VarScope,
};
use tass_prove::api::{build_prover, Answer, Prover, ProverOptions, ProverStats, Validity};
use tass_semantics::api::{is_internal_symbol, is_stand_in_function};
use tass_simplify::api::{Simplifier, SimplifierCache};
use tass_state::api::{
    Certainty as EngineCertainty, EngineConfig, EngineError, FixedValue, ProcessStatus,
    Property as EngineProperty, State, Step, Value, Violation,
};
use tass_symbolic::api::{BigInt, BigRational, Expr, ExprFactory, ExprView, Type};

use crate::engine::{Engine, Equality, Executed, OutputMismatch, StepInfo};
use crate::options::{DeadlockMode, Options, Reduction, UrgentChoice};
use crate::por::{Access, PorTables};
use crate::report::Report;
use crate::signature::check_signatures;
use crate::system::verify_with;
use tass_prove::api::ProverChoice;

mod livelock;

/// One prover shared by the engines of a run and by the output comparison, so that
/// its caches and counters are shared too.
struct SharedProver(Arc<dyn Prover>);

impl Prover for SharedProver {
    fn valid(&self, assumption: Expr, predicate: Expr) -> Validity {
        self.0.valid(assumption, predicate)
    }
    fn valid_with_model(&self, assumption: Expr, predicate: Expr) -> Answer {
        self.0.valid_with_model(assumption, predicate)
    }
    fn is_unsat(&self, pc: Expr) -> bool {
        self.0.is_unsat(pc)
    }
    fn stats(&self) -> ProverStats {
        self.0.stats()
    }
    fn name(&self) -> String {
        self.0.name()
    }
}

/// Builds the prover for `choice` over `factory`.
fn make_prover(
    factory: &Arc<ExprFactory>,
    choice: &ProverChoice,
) -> Result<Arc<dyn Prover>, String> {
    build_prover(Arc::clone(factory), &ProverOptions::new(*choice))
        .map(Arc::from)
        .map_err(|e| format!("error: {e}"))
}

/// Parses the `-i NAME=VALUE` values: integers, decimals (`2.5`, `1e-3`),
/// fractions (`1/3`, as witnesses print them), `true`/`false`.
fn fixed_inputs(options: &Options) -> Result<Vec<(String, FixedValue)>, String> {
    options
        .inputs
        .iter()
        .map(|(name, text)| {
            let value = match text.split_once('/') {
                Some((n, d)) => {
                    let n: BigInt = n.trim().parse().map_err(|_| bad_value(name, text))?;
                    let d: BigInt = d.trim().parse().map_err(|_| bad_value(name, text))?;
                    if d == BigInt::from(0) {
                        return Err(bad_value(name, text));
                    }
                    FixedValue::Real(BigRational::new(n, d))
                }
                None => FixedValue::parse(text).map_err(|e| format!("error: -i {name}: {e}"))?,
            };
            Ok((name.clone(), value))
        })
        .collect()
}

fn bad_value(name: &str, text: &str) -> String {
    format!("error: -i {name}={text}: `{text}` is not a number (expected e.g. 10, -3, 2.5, 1/3)")
}

/// Writes a rational the way `-i` reads it back: an integer, a terminating decimal,
/// or `p/q`.
fn witness_value(text: &str) -> String {
    let Some((n, d)) = text.split_once('/') else {
        return text.to_string();
    };
    let (Ok(n), Ok(d)) = (n.trim().parse::<i128>(), d.trim().parse::<i128>()) else {
        return text.to_string();
    };
    if d == 0 {
        return text.to_string();
    }
    // Terminating decimal iff d has no prime factors other than 2 and 5.
    let mut rest = d.abs();
    let mut digits = 0u32;
    let (mut twos, mut fives) = (0u32, 0u32);
    while rest % 2 == 0 {
        rest /= 2;
        twos += 1;
    }
    while rest % 5 == 0 {
        rest /= 5;
        fives += 1;
    }
    if rest != 1 {
        return format!("{n}/{d}");
    }
    digits = digits.max(twos).max(fives);
    let Some(scale) = 10i128.checked_pow(digits) else {
        return format!("{n}/{d}");
    };
    let Some(scaled) = n.checked_mul(scale / d.abs()) else {
        return format!("{n}/{d}");
    };
    let scaled = if d < 0 { -scaled } else { scaled };
    let sign = if scaled < 0 { "-" } else { "" };
    let abs = scaled.unsigned_abs();
    let int_part = abs / scale as u128;
    let frac = abs % scale as u128;
    if digits == 0 {
        return format!("{sign}{int_part}");
    }
    format!("{sign}{int_part}.{frac:0width$}", width = digits as usize)
}

fn witness_values(pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    pairs
        .into_iter()
        .map(|(n, v)| (n, witness_value(&v)))
        .collect()
}

/// A prover's witness: `(symbol, value)` pairs.
type WitnessValues = Vec<(String, String)>;

/// The real engine with what the verifier adds: the prover handle, the
/// state-saving locations, the deadlock mode.
pub(crate) struct RealEngine {
    engine: tass_state::api::Engine,
    model: Arc<Model>,
    factory: Arc<ExprFactory>,
    prover: Arc<dyn Prover>,
    /// Per function name: the locations at which a state is saved.
    save_at: HashMap<String, HashSet<LocationId>>,
    /// What the partial-order reduction knows about the model's transitions.
    por: PorTables,
    builtin_only: bool,
    deadlock: DeadlockMode,
    /// `Off`: [`Engine::reduce`] and [`Engine::steps_alone`] prune nothing.
    reduction: Reduction,
    /// Which process [`Engine::reduce`] prefers (`--cqmin`).
    urgent_choice: UrgentChoice,
    /// Simplifiers per assumption (output comparison, printing).
    simplifiers: SimplifierCache,
    /// `-i` inputs as the user gave them.
    fixed: Vec<(String, String)>,
    /// Per path condition: what compare's pairing needs ([`Self::pairing_facts`]).
    pairing: HashMap<Expr, PairingFacts>,
    /// What the livelock check has learnt (`real/livelock.rs`).
    livelock_memo: livelock::LivelockMemo,
}

/// The constants a path condition fixes (with their values) and those it mentions.
type PairingFacts = (Arc<tass_symbolic::api::ExprMap>, Arc<HashSet<Expr>>);

/// The locations where the state-saving heuristic (paper Sec. 5.4) saves: those
/// with several incoming edges that are neither the join of an `if` nor the head of
/// a `for` loop. `while`/`do` loop heads are the typical ones; every cycle of a
/// function's graph passes through a loop head, so only `for` loops that revisit a
/// state can make the search repeat itself (ended by `--max-states`/`--timeout`).
fn saving_locations(model: &Model) -> HashMap<String, HashSet<LocationId>> {
    let mut out = HashMap::new();
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        let mut set = HashSet::new();
        for loc in body.graph.node_indices() {
            let incoming = body
                .graph
                .neighbors_directed(loc, petgraph::Direction::Incoming)
                .count();
            let kind = body.location(loc).kind;
            let save = match kind {
                LocationKind::LoopHead => true,
                LocationKind::IfJoin | LocationKind::ForLoopHead | LocationKind::Exit => false,
                LocationKind::Plain => incoming >= 2,
            };
            if save {
                set.insert(loc);
            }
        }
        out.insert(f.name.clone(), set);
    }
    out
}

/// The MPI call at a transition, with its argument list.
fn mpi_call(
    model: &Model,
    function: FunctionId,
    transition: TransitionId,
) -> Option<(LibraryFunction, &[ModelExpr])> {
    let body = model.function(function).body.as_ref()?;
    match &body.transition(transition).statement {
        Statement::Call {
            callee: Callee::Library(lf),
            args,
            ..
        } if lf.is_mpi() => Some((*lf, args.as_slice())),
        _ => None,
    }
}

/// The values of `MPI_ANY_SOURCE` and `MPI_PROC_NULL` (as the evaluator gives them).
const ANY_SOURCE: i64 = -1;
const PROC_NULL: i64 = -2;

/// The argument positions of the destination and the communicator of the
/// blocking send `lf` makes.
fn send_args(lf: LibraryFunction) -> Option<(usize, usize)> {
    use LibraryFunction as L;
    match lf {
        L::MpiSend | L::MpiRsend | L::MpiSsend | L::MpiBsend => Some((3, 5)),
        _ => None,
    }
}

/// The argument positions of the source and the communicator of the receive (or
/// receive half) `lf` makes.
fn receive_args(lf: LibraryFunction) -> Option<(usize, usize)> {
    use LibraryFunction as L;
    match lf {
        L::MpiRecv => Some((3, 5)),
        L::MpiSendrecv => Some((8, 10)),
        L::MpiSendrecvReplace => Some((5, 7)),
        _ => None,
    }
}

fn is_comm_world(e: Option<&ModelExpr>) -> bool {
    matches!(
        e.map(|e| &e.kind),
        Some(ExprKind::LibraryConstant(LibraryConstant::MpiCommWorld))
    )
}

impl RealEngine {
    /// Why the implementation's paths were not shown to cover a path of the
    /// specification (`answer`: the prover's verdict on that path).
    fn uncovered(answer: Answer) -> String {
        match answer.validity {
            Validity::Yes | Validity::No => {
                let example = answer
                    .model
                    .map(|m| {
                        m.iter()
                            .filter(|(name, _)| !is_internal_symbol(name))
                            .map(|(name, v)| format!("{name} = {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .filter(|e| !e.is_empty())
                    .map(|e| format!(" (e.g. {e})"))
                    .unwrap_or_default();
                format!(
                    "for some inputs the specification accepts{example}, the implementation \
                     completes no path, so its outputs were never compared: it may not \
                     terminate there, or its input constraints or assumptions are narrower"
                )
            }
            Validity::Maybe => "the prover could not show that the implementation \
                 completes a path for every input the specification accepts"
                .to_string(),
        }
    }

    /// True if the constants `fixer` fixes to concrete values make `other` true:
    /// then `fixer` implies `other`.
    fn fixed_values_satisfy(&mut self, fixer: Expr, other: Expr) -> bool {
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
    fn fixed_values_refute(&mut self, fixer: Expr, other: Expr) -> bool {
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
    fn after_fixing(&mut self, fixer: Expr, other: Expr, only_if_new: bool) -> Option<Expr> {
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
    fn pairing_facts(&mut self, condition: Expr) -> &PairingFacts {
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

    fn new(
        model: Arc<Model>,
        factory: &Arc<ExprFactory>,
        prover: &Arc<dyn Prover>,
        nprocs: usize,
        options: &Options,
    ) -> Result<RealEngine, String> {
        let arith = options.arith;
        let config = EngineConfig {
            nprocs,
            arith,
            fixed_inputs: fixed_inputs(options)?,
            signed_overflow: options.signed_overflow,
        };
        let boxed: Box<dyn Prover> = Box::new(SharedProver(Arc::clone(prover)));
        let mut engine =
            tass_state::api::Engine::new(Arc::clone(&model), Arc::clone(factory), boxed, config)
                .map_err(|e| format!("error: {e}"))?;
        // Traces are rebuilt by replaying the path (`system::replay`), which turns
        // the change log back on.
        engine.set_record_changes(false);
        Ok(RealEngine {
            engine,
            save_at: saving_locations(&model),
            por: PorTables::new(&model),
            model,
            factory: Arc::clone(factory),
            prover: Arc::clone(prover),
            builtin_only: options.prover == ProverChoice::Builtin,
            deadlock: options.deadlock,
            reduction: options.reduction,
            urgent_choice: options.urgent_choice,
            simplifiers: SimplifierCache::new(Arc::clone(factory)),
            fixed: options.inputs.clone(),
            pairing: HashMap::new(),
            livelock_memo: livelock::LivelockMemo::default(),
        })
    }

    /// Appends `name = value` for a scalar, or one entry per element (`name[i]...`)
    /// for an array of concrete extent, printed exactly (`5`, `115/2`, `true`).
    fn flatten_output(
        &self,
        simplifier: &Simplifier,
        name: String,
        e: Expr,
        depth: usize,
        out: &mut Vec<(String, String)>,
    ) {
        let f = &self.factory;
        let e = simplifier.simplify(e);
        if depth < 8 {
            if let Some(elements) = self.elements(simplifier, e) {
                for (k, element) in elements.into_iter().enumerate() {
                    self.flatten_output(
                        simplifier,
                        format!("{name}[{k}]"),
                        element,
                        depth + 1,
                        out,
                    );
                }
                return;
            }
        }
        let text = if let Some(i) = f.as_concrete_int(e) {
            i.to_string()
        } else if let Some(r) = f.as_concrete_rational(e) {
            r.to_string()
        } else if let Some(b) = f.as_bool(e) {
            b.to_string()
        } else {
            f.pretty(e)
        };
        out.push((name, text));
    }

    /// How sure a report of a state where the system is stuck (a deadlock or
    /// a livelock) is: `None` when the state's path condition is
    /// unsatisfiable (the path is vacuous), else the certainty and the
    /// prover's witness.
    fn stuck_certainty(
        &mut self,
        state: &State,
    ) -> Option<(EngineCertainty, Option<WitnessValues>)> {
        if self.engine.is_vacuous(state) {
            return None;
        }
        let pc = self.engine.path_condition(state);
        let answer = self.prover.valid_with_model(pc, self.factory.ff());
        Some(match answer.validity {
            Validity::Yes => return None,
            Validity::No if self.leans_on_stand_in(&[pc]) => (EngineCertainty::Possible, None),
            Validity::No => (
                EngineCertainty::Provable,
                answer.model.map(|m| {
                    witness_values(
                        m.iter()
                            .filter(|(n, _)| !is_internal_symbol(n))
                            .map(|(n, v)| (n.to_string(), v.to_string()))
                            .collect(),
                    )
                }),
            ),
            Validity::Maybe => (EngineCertainty::Possible, None),
        })
    }

    /// True if one of `exprs` applies an uninterpreted stand-in for a known
    /// function (see [`is_stand_in_function`]).
    fn leans_on_stand_in(&self, exprs: &[Expr]) -> bool {
        let f = &self.factory;
        exprs.iter().any(|&e| {
            f.free_symbols(e).into_iter().any(|s| {
                matches!(f.type_of(s), Type::Function(..))
                    && f.symbol_name(s).is_some_and(|n| is_stand_in_function(&n))
            })
        })
    }

    fn data(&self, v: &Value) -> Option<Expr> {
        match v {
            Value::Data(e) => Some(*e),
            _ => None,
        }
    }

    /// Decides `assumption => a == b` for two data values of one type.
    fn decide_equal(&self, assumption: Expr, a: Expr, b: Expr) -> Option<Equality> {
        if a == b {
            return None;
        }
        let f = &self.factory;
        if f.type_of(a) != f.type_of(b) {
            return Some(Equality::Different(None));
        }
        let claim = f.eq(a, b);
        let answer = self.prover.valid_with_model(assumption, claim);
        match answer.validity {
            Validity::Yes => None,
            // The prover may have given `sqrt` (say) a meaning the real one lacks.
            Validity::No if self.leans_on_stand_in(&[assumption, a, b]) => Some(Equality::Unknown),
            Validity::No => Some(Equality::Different(answer.model.map(|m| {
                witness_values(
                    m.iter()
                        .filter(|(name, _)| !is_internal_symbol(name))
                        .map(|(name, v)| (name.to_string(), v.to_string()))
                        .collect(),
                )
            }))),
            Validity::Maybe => Some(Equality::Unknown),
        }
    }

    /// The elements of a data array whose extent is concrete under the assumption
    /// (`None` otherwise).
    fn elements(&self, simplifier: &Simplifier, a: Expr) -> Option<Vec<Expr>> {
        let f = &self.factory;
        let Type::Array(_, _) = f.type_of(a) else {
            return None;
        };
        let extent = simplifier.simplify(f.array_extent(a)?);
        let n = f.as_concrete_int(extent)?;
        let n: usize = n.try_into().ok().filter(|&n: &usize| n <= 1 << 16)?;
        // A conversion between array types (e.g. extent `N` to extent 4) keeps the
        // elements: read them from the converted array itself.
        let mut a = a;
        while let ExprView::Cast(inner) = f.view(a) {
            if !matches!(f.type_of(inner), Type::Array(..)) {
                break;
            }
            a = inner;
        }
        Some(
            (0..n)
                .map(|i| simplifier.simplify(f.array_read(a, f.int(i as i64))))
                .collect(),
        )
    }

    /// Compares two data values, descending into arrays of concrete extent to name
    /// the first element that differs.
    fn compare_data(
        &self,
        simplifier: &Simplifier,
        assumption: Expr,
        name: String,
        a: Expr,
        b: Expr,
    ) -> Option<OutputMismatch<Value>> {
        let a = self.reads_through_casts(simplifier.simplify(a));
        let b = self.reads_through_casts(simplifier.simplify(b));
        if a == b {
            return None;
        }
        if let (Some(xs), Some(ys)) = (self.elements(simplifier, a), self.elements(simplifier, b)) {
            if xs.len() == ys.len() {
                let mut undecided = None;
                for (k, (x, y)) in xs.into_iter().zip(ys).enumerate() {
                    let element = format!("{name}[{k}]");
                    if let Some(m) = self.compare_data(simplifier, assumption, element, x, y) {
                        if matches!(m.answer, Equality::Different(_)) {
                            return Some(m);
                        }
                        undecided.get_or_insert(m);
                    }
                }
                return undecided;
            }
        }
        self.decide_equal(assumption, a, b)
            .map(|answer| OutputMismatch {
                element: name,
                spec: Value::Data(a),
                imp: Value::Data(b),
                answer,
            })
    }

    /// Rewrites `(T[])x)[i]` (a read of an array converted to another array
    /// type, e.g. extent `N` to extent 4) to `x[i]`, which the factory then
    /// evaluates when `x` is concrete. Such conversions appear where a simplified
    /// array meets one typed with the unsimplified extent; the factory does not see
    /// through them, and the prover would answer "maybe".
    fn reads_through_casts(&self, e: Expr) -> Expr {
        let f = &self.factory;
        let mut e = e;
        for _ in 0..4 {
            let mut map = hashbrown::HashMap::new();
            let mut seen = HashSet::new();
            let mut todo = vec![e];
            while let Some(x) = todo.pop() {
                if !seen.insert(x) {
                    continue;
                }
                if let ExprView::ArrayRead(array, index) = f.view(x) {
                    if let ExprView::Cast(inner) = f.view(array) {
                        if matches!(f.type_of(inner), Type::Array(..)) {
                            map.insert(x, f.array_read(inner, index));
                        }
                    }
                }
                todo.extend(f.children(x));
            }
            if map.is_empty() {
                break;
            }
            e = f.substitute(e, &map);
        }
        e
    }

    /// The value of the rank expression `e` as process `p` (whose top frame is a
    /// call of `top`) sees it in `state`, when it is a literal, an MPI constant,
    /// a variable holding an integer, or sums, differences and products of
    /// those. `None` when it cannot tell.
    fn rank_value(
        &self,
        state: &State,
        p: usize,
        top: FunctionId,
        e: &ModelExpr,
        depth: u32,
    ) -> Option<Expr> {
        if depth > 8 {
            return None;
        }
        let f = &self.factory;
        let sub = |x: &ModelExpr| self.rank_value(state, p, top, x, depth + 1);
        match &e.kind {
            ExprKind::IntLit(k) => Some(f.int(i64::try_from(*k).ok()?)),
            ExprKind::LibraryConstant(LibraryConstant::MpiAnySource) => Some(f.int(ANY_SOURCE)),
            ExprKind::LibraryConstant(LibraryConstant::MpiProcNull) => Some(f.int(PROC_NULL)),
            ExprKind::Unary(UnaryOp::Neg, inner) => Some(f.neg(sub(inner)?)),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (sub(a)?, sub(b)?);
                match op {
                    BinaryOp::Add => Some(f.add(a, b)),
                    BinaryOp::Sub => Some(f.sub(a, b)),
                    BinaryOp::Mul => Some(f.mul(a, b)),
                    _ => None,
                }
            }
            ExprKind::Var(v) => {
                let var = self.model.var(*v);
                // `Engine::variable` finds a name among the top frame's locals,
                // the process globals and the shared variables: trust it only
                // when this variable is the one variable of its name there.
                let visible = |w: &tass_model::api::Variable| {
                    w.name == var.name
                        && match w.scope {
                            VarScope::Local(f) => f == top,
                            VarScope::ProcessGlobal | VarScope::Input | VarScope::Output => true,
                            VarScope::Bound => false,
                        }
                };
                if !visible(var) || self.model.variables.iter().filter(|w| visible(w)).count() != 1
                {
                    return None;
                }
                match self.engine.variable(state, p, &var.name)? {
                    Value::Data(x) if matches!(f.type_of(x), Type::Int) => Some(x),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether rank value `r` equals `v` wherever `assumption` holds (asking the
    /// prover unless `r` is concrete).
    fn rank_is(&self, assumption: Expr, r: Expr, v: i64) -> bool {
        let f = &self.factory;
        match f.as_concrete_int(r) {
            Some(k) => k == BigInt::from(v),
            None => self.prover.valid(assumption, f.eq(r, f.int(v))) == Validity::Yes,
        }
    }

    /// The source rank a process `d` waits for, if it is at a location whose one
    /// outgoing transition is a receive (or the receive half of a
    /// `MPI_Sendrecv(_replace)`) on `MPI_COMM_WORLD`.
    fn receive_source(&self, state: &State, statuses: &[ProcessStatus], d: usize) -> Option<Expr> {
        let ProcessStatus::Running { location, .. } = statuses.get(d)? else {
            return None;
        };
        let top = self.top_function(statuses, d)?;
        let body = self.model.function(top).body.as_ref()?;
        let mut outgoing = body.outgoing(*location);
        let (Some((_, t, _)), None) = (outgoing.next(), outgoing.next()) else {
            return None;
        };
        let Statement::Call {
            callee: Callee::Library(lf),
            args,
            ..
        } = &t.statement
        else {
            return None;
        };
        let (source_arg, comm_arg) = receive_args(*lf)?;
        if !is_comm_world(args.get(comm_arg)) {
            return None;
        }
        self.rank_value(state, d, top, args.get(source_arg)?, 0)
    }

    /// Whether the blocking send `step` (`MPI_Send`/`MPI_Rsend`, of process
    /// `p`, enabled in `state`, `enabled` being all the steps enabled there) is
    /// *urgent* when potential deadlocks are checked: it goes to `MPI_PROC_NULL`, or its destination `d` waits in
    /// a receive that only `p` can complete and no other process can move `d`
    /// out of it. Then until `p` sends, `d` stays where it is and the send stays
    /// matched (never one that completes only by buffering), whatever the
    /// other processes do: no state where `p` is still at the send is a
    /// potential deadlock, and the send commutes with every step of the others.
    /// Concretely: both calls are on `MPI_COMM_WORLD`; the destination is rank
    /// `d != p` under the path condition and the step's guard; the engine says
    /// `d` waits in a matching receive (the step is not `buffered_send`); `d` is
    /// at a location with this one outgoing transition, a receive (or the
    /// receive half of a `MPI_Sendrecv(_replace)`) whose source is exactly `p`;
    /// `d` has no enabled step (no message from `p` it could take first and
    /// then leave) and no posted receive (`MPI_Irecv`) pending, so the message
    /// goes to exactly that receive.
    fn urgent_send(
        &mut self,
        state: &State,
        step: &Step,
        lf: LibraryFunction,
        args: &[ModelExpr],
        enabled: &[Step],
        statuses: &[ProcessStatus],
    ) -> bool {
        let p = step.process;
        let Some((dest_arg, comm_arg)) = send_args(lf) else {
            return false;
        };
        let Some(top) = self.top_function(statuses, p) else {
            return false;
        };
        if !is_comm_world(args.get(comm_arg)) {
            return false;
        }
        let f = Arc::clone(&self.factory);
        // A destination the rank evaluation here cannot read (a struct field
        // such as `status.MPI_SOURCE`) is asked of the engine, which evaluates
        // it as the send will and proves its value under the path condition.
        let dest = match args
            .get(dest_arg)
            .and_then(|a| self.rank_value(state, p, top, a, 0))
        {
            Some(dest) => dest,
            None => match self.engine.send_destination(state, step) {
                Ok(Some(rank)) => f.int(rank),
                _ => return false,
            },
        };
        if step.buffered_send {
            return false;
        }
        let pc = self.engine.path_condition(state);
        let here = if step.guard_known_true {
            pc
        } else {
            f.and(pc, step.guard)
        };
        if self.rank_is(here, dest, PROC_NULL) {
            return true; // completes at once, touches nothing shared
        }
        // The receiver: a process with no enabled step waiting for `p`.
        (0..statuses.len()).any(|d| {
            d != p
                && !enabled.iter().any(|s| s.process == d)
                && !self.engine.pending_receives(state, d)
                && self
                    .receive_source(state, statuses, d)
                    .is_some_and(|source| self.rank_is(pc, source, p as i64))
                && self.rank_is(here, dest, d as i64)
        })
    }

    /// The synchronous transitions explored at `state` instead of `enabled`
    /// (with `--deadlock potential`, when no process is urgent), after the
    /// send–receive pairs of the paper's TASS and Siegel's treatment of
    /// wildcard receives: some process `d` waits in a blocking `MPI_Recv` on
    /// `MPI_COMM_WORLD` with nothing to take and no posted receive; every
    /// enabled step is the one step of its process, a standard send on
    /// `MPI_COMM_WORLD` (guard known, `commutes`) whose message that receive
    /// waits for ([`tass_state::api::Engine::waiting_receiver`]); and every
    /// other running process has no enabled step, no posted receive, and waits
    /// in a receive whose source is exactly `d`. Then each send is explored as
    /// one transition together with `d`'s receive of its message
    /// (`Step::delivered_to`); a send is never buffered here.
    ///
    /// Why nothing is lost. Call `S` the senders. Until `d` receives, the only
    /// steps possible are the senders' (the others wait for `d`): each may
    /// buffer its message and go on, and what it does next neither touches
    /// `d` nor lets another process send `d` a message `d` would take first
    /// (a later message of a sender queues behind its first one; the waiting
    /// processes move only after `d` does). So in every execution from
    /// `state` in which `d` receives, it takes the current message of some
    /// `p` in `S`, and that send and receive touch only `p`'s send, the
    /// channel `p -> d` and `d`: they commute with every step before them,
    /// which moves them to the front with every process's own sequence of
    /// steps, every step's violations and the final state unchanged — the
    /// synchronous transition for `p`. Until `d` receives, no state is a
    /// potential deadlock (a sender still at its send is matched by `d`'s
    /// waiting receive; once one has buffered, `d` can take its message) and
    /// none is terminal or deadlocked (`d` waits with a sender at its send or
    /// a message to take), so an execution in which `d` never receives ends in
    /// none of them, and a violation on the way is a step of a sender that it
    /// takes, in the same local state, after its synchronous transition too.
    /// The search counts such a state as reduced, so its cycle proviso
    /// applies.
    fn synchronous_sends(
        &mut self,
        state: &State,
        enabled: &[Step],
        statuses: &[ProcessStatus],
    ) -> Option<Vec<Step>> {
        let mut receiver = None;
        let mut senders = Vec::with_capacity(enabled.len());
        for step in enabled {
            if !step.guard_known_true || !step.commutes || senders.contains(&step.process) {
                return None;
            }
            let (lf, args) = mpi_call(&self.model, step.function, step.transition)?;
            if !matches!(lf, LibraryFunction::MpiSend | LibraryFunction::MpiRsend)
                || !is_comm_world(args.get(5))
            {
                return None;
            }
            let d = self.engine.waiting_receiver(state, step).ok()??;
            if *receiver.get_or_insert(d) != d {
                return None;
            }
            senders.push(step.process);
        }
        let d = receiver?;
        self.receive_source(state, statuses, d)?;
        let pc = self.engine.path_condition(state);
        let d_rank = i64::try_from(d).ok()?;
        let others_wait_for_d = statuses.iter().enumerate().all(|(q, status)| {
            q == d
                || senders.contains(&q)
                || matches!(status, ProcessStatus::Terminated { .. })
                || !self.engine.pending_receives(state, q)
                    && self
                        .receive_source(state, statuses, q)
                        .is_some_and(|source| self.rank_is(pc, source, d_rank))
        });
        others_wait_for_d.then(|| {
            enabled
                .iter()
                .map(|s| Step {
                    delivered_to: Some(d),
                    ..s.clone()
                })
                .collect()
        })
    }

    /// Whether the local step `step` may be explored alone: it touches only
    /// its process's own memory (its outputs included), or shared memory while
    /// no other process can reach a transition touching shared memory any more
    /// (`others_touch_shared`, asked only then).
    fn local_step_alone(&self, step: &Step, others_touch_shared: impl FnOnce() -> bool) -> bool {
        match self.por.access(step.function, step.transition) {
            Access::Own => true,
            Access::Shared => !others_touch_shared(),
            Access::Other => false,
        }
    }

    /// The function of process `p`'s top frame, if it is running.
    fn top_function(&self, statuses: &[ProcessStatus], p: usize) -> Option<FunctionId> {
        match statuses.get(p)? {
            ProcessStatus::Running { function, .. } => self.por.function_id(function),
            ProcessStatus::Terminated { .. } => None,
        }
    }

    /// Whether some running process other than `p` may still execute a
    /// transition that touches the shared memory `step` may touch.
    fn others_may_touch_shared(&self, statuses: &[ProcessStatus], p: usize, step: &Step) -> bool {
        let regions = self.por.regions(step.function, step.transition);
        !regions.is_empty()
            && others_where(statuses, p, |function, location| {
                self.por.may_touch(function, location, regions)
            })
    }

    /// Whether the enabled step `step` may form, with the other enabled steps of
    /// its process, the whole set explored at a state (see [`Engine::reduce`]).
    /// MPI calls are taken one by one, and only those whose behaviour the
    /// reduction's argument covers; everything else is never explored alone.
    fn safe_alone(
        &mut self,
        state: &State,
        step: &Step,
        enabled: &[Step],
        statuses: &[ProcessStatus],
    ) -> bool {
        use LibraryFunction as L;
        let p = step.process;
        if !step.settled {
            // Another process could enable a new step of `p` here (a message
            // for a posted receive with nothing to take, a wildcard one, a
            // statement that waits for others) or complete a request `p`'s
            // wait or test looks at.
            return false;
        }
        if step.request.is_some() {
            // Progress of a posted receive from one source (`commutes`) with
            // its message there: only `p` takes messages from that channel, and
            // later messages queue behind it. It writes the receive buffer, so
            // it is shared when the `MPI_Irecv` is.
            return step.commutes && !self.others_may_touch_shared(statuses, p, step);
        }
        if step.local {
            return self.local_step_alone(step, || self.others_may_touch_shared(statuses, p, step));
        }
        let model = Arc::clone(&self.model);
        let Some((lf, args)) = mpi_call(&model, step.function, step.transition) else {
            return false;
        };
        if self.others_may_touch_shared(statuses, p, step) {
            return false;
        }
        let potential = self.deadlock == DeadlockMode::Potential;
        match lf {
            // Changes only the process's own MPI phase (the engine does not mark
            // it `commutes`, as MPI is not initialised yet).
            L::MpiInit => true,
            L::MpiFinalize
            | L::MpiCommRank
            | L::MpiCommSize
            | L::MpiGetCount
            | L::MpiRequestFree => step.commutes,
            // From one source (`commutes`), with the message there: only this
            // process takes messages from that channel.
            L::MpiRecv | L::MpiProbe => step.commutes,
            // Never blocks (not a "blocking send" of the deadlock test). An
            // `MPI_Issend` appends its message as `MPI_Isend` does; only its
            // wait differs (and `settled` keeps that wait out while the
            // receiver has not matched it).
            L::MpiBsend | L::MpiIsend | L::MpiIssend => step.commutes,
            // Posts a receive (its progress steps come later): changes only
            // `p`'s requests. It may make a sender's standard send one that
            // needs no buffer, which matters only at states where no process
            // can move (never one where this post is enabled).
            L::MpiIrecv => step.commutes,
            L::MpiSend | L::MpiRsend => {
                step.commutes
                    && (!potential || self.urgent_send(state, step, lf, args, enabled, statuses))
            }
            // Three steps (engine's `CallStage`): the post of the send half
            // (never blocks, as an `MPI_Isend`); the receive half, a receive
            // from one source (`commutes`) with its message there; the return,
            // once the send half completes, which depends on `p` alone (its
            // message is received or not) and, as a wait, is left out with
            // `--deadlock potential` while it completes only by buffering.
            L::MpiSendrecv | L::MpiSendrecvReplace => {
                step.commutes && !(potential && step.buffered_send)
            }
            // Two steps: the post of its message (as an `MPI_Issend`), and
            // the return, enabled only once the message was received (then
            // `settled`: it stays enabled and changes only `p`).
            L::MpiSsend => step.commutes,
            // With `settled`, the requests looked at complete only by `p`'s own
            // steps (its receives' progress) or are complete already (sends
            // buffered or received, collectives every member posted): the
            // outcome depends on `p` alone, and a completion once possible
            // stays possible. A wait completing an `MPI_Isend` only by
            // buffering is left out with `--deadlock potential`.
            L::MpiWait | L::MpiWaitall | L::MpiWaitany => {
                step.commutes && !(potential && step.buffered_send)
            }
            // A test never blocks, but one that completes an `MPI_Isend` only
            // by buffering finds nothing with zero buffering: taken alone, it
            // could let its process leave a polling loop in which the
            // livelock check (`real/livelock.rs`) would find every process
            // stuck, so it is left out with `--deadlock potential` as the
            // wait is.
            L::MpiTest | L::MpiTestall => step.commutes && !(potential && step.buffered_send),
            // Posts this process's part of a nonblocking collective: never
            // blocks, and other posts commute with it (the operation works on
            // the data each member gave at its post, whoever posts last). It
            // decides when the operation completes, which only the members'
            // waits and tests see: a wait is enabled only after every post,
            // but an `MPI_Test` (`MPI_Testall`) has an outcome for "not yet",
            // so the post is taken alone only when no other process can still
            // reach one. (The last post also checks that the members' send
            // buffers are unchanged; a change undone before the wait can be
            // missed, as the guide says.)
            lf if lf.is_nonblocking_collective() => !self.others_may_test(statuses, p),
            _ => false,
        }
    }

    /// Whether a process other than `p` may still call `MPI_Test` or
    /// `MPI_Testall`.
    fn others_may_test(&self, statuses: &[ProcessStatus], p: usize) -> bool {
        others_where(statuses, p, |function, location| {
            self.por.may_test(function, location)
        })
    }

    fn location_saved(&self, function: &str, location: LocationId) -> bool {
        self.save_at
            .get(function)
            .is_some_and(|set| set.contains(&location))
    }
}

/// Whether some running process other than `p` sits where `at(function,
/// location)` holds.
fn others_where(
    statuses: &[ProcessStatus],
    p: usize,
    at: impl Fn(&str, LocationId) -> bool,
) -> bool {
    statuses.iter().enumerate().any(|(q, s)| match s {
        ProcessStatus::Running {
            function, location, ..
        } => q != p && at(function, *location),
        ProcessStatus::Terminated { .. } => false,
    })
}

impl Engine for RealEngine {
    type State = State;
    type Step = Step;
    type Value = Value;
    type JointHistory = Vec<tass_state::api::JointPoint>;

    fn initial_state(&mut self) -> Result<State, EngineError> {
        self.engine.initial_state()
    }

    fn enabled(&mut self, state: &State) -> Result<Vec<Step>, EngineError> {
        let steps = self.engine.enabled(state)?;
        // MPI, --deadlock potential: a state where no process could move without
        // buffering a standard send is a (potential) deadlock, reported as a stuck
        // state by `final_violations`.
        if self.deadlock == DeadlockMode::Potential
            && self.model.uses_mpi
            && !steps.is_empty()
            && self.engine.potential_deadlock(state, &steps)?
        {
            return Ok(Vec::new());
        }
        Ok(steps)
    }

    fn livelock(
        &mut self,
        state: &State,
        steps: &[Step],
    ) -> Result<Option<Violation>, EngineError> {
        self.livelock_at(state, steps)
    }

    fn unchecked(&self) -> Option<String> {
        self.livelock_memo.unchecked()
    }

    /// A step that took a branch (its guard was not implied by the path condition)
    /// strengthened the path condition: the new state is simplified under it at
    /// once (canonicalized), so that values the new condition determines are
    /// substituted before the path goes on. This is the paper's simplification of
    /// branching states, applied to the state right after the branch, which is the
    /// one the path continues with. It matters most for arrays of input-dependent
    /// extent: once a loop over `i < NY` has fixed `NY`, indices such as
    /// `1 + (NY - 2) * r / active` become numbers, instead of reaching the path
    /// condition as reads at symbolic indices that every later simplifier must
    /// substitute into again (Laplace with symbolic `NY`). Simplification retypes
    /// such arrays (extent `NY` becomes `12`); reads see through the retyping cast.
    fn execute(&mut self, state: State, step: &Step) -> Result<Executed<State>, EngineError> {
        let mut outcome = self.engine.execute(state, step)?;
        if !step.guard_known_true {
            outcome.state = self.engine.canonicalize(outcome.state);
        }
        let violations = outcome
            .violations
            .into_iter()
            .map(|mut v| {
                v.witness = v.witness.map(witness_values);
                v
            })
            .collect();
        Ok(Executed {
            state: outcome.state,
            violations,
            changes: outcome
                .changes
                .into_iter()
                .map(|c| crate::report::Change {
                    variable: c.variable,
                    value: c.value,
                })
                .collect(),
        })
    }

    fn is_terminated(&self, state: &State) -> bool {
        self.engine.is_terminated(state)
    }

    fn final_violations(&mut self, state: &State) -> Vec<Violation> {
        if self.engine.is_terminated(state) {
            let mut out = self.engine.check_termination(state);
            for v in &mut out {
                v.witness = v.witness.take().map(witness_values);
            }
            return out;
        }
        // No step is enabled but some process has not terminated: a deadlock,
        // unless the path is vacuous.
        if self.deadlock == DeadlockMode::None {
            return Vec::new();
        }
        let Some((certainty, witness)) = self.stuck_certainty(state) else {
            return Vec::new();
        };
        let statuses = self.engine.process_status(state);
        let mpi_calls = self.engine.blocked_calls(state);
        let mut blocked = Vec::new();
        let mut first = None;
        for (p, s) in statuses.iter().enumerate() {
            if let ProcessStatus::Running { function, span, .. } = s {
                match mpi_calls.iter().find(|(q, _)| *q == p) {
                    Some((_, call)) => {
                        blocked.push(format!("process {p} is blocked in {call} at {span}"))
                    }
                    None => blocked.push(format!("process {p} is blocked in {function} at {span}")),
                }
                first.get_or_insert((p, span.clone()));
            }
        }
        let Some((process, span)) = first else {
            return Vec::new();
        };
        vec![Violation {
            property: EngineProperty::Deadlock,
            certainty,
            message: format!("no process can move: {}", blocked.join("; ")),
            span,
            process,
            witness,
            claim: "some process can move or all have terminated".into(),
        }]
    }

    fn canonicalize(&mut self, state: State) -> State {
        self.engine.canonicalize(state)
    }

    fn set_record_changes(&mut self, on: bool) {
        self.engine.set_record_changes(on);
    }

    fn at_join_location(&self, state: &State) -> bool {
        self.engine.process_status(state).iter().any(|s| match s {
            ProcessStatus::Running {
                function, location, ..
            } => self.location_saved(function, *location),
            ProcessStatus::Terminated { .. } => false,
        })
    }

    fn process_at_join_location(&self, state: &State, process: usize) -> bool {
        match self.engine.process_status(state).get(process) {
            Some(ProcessStatus::Running {
                function, location, ..
            }) => self.location_saved(function, *location),
            _ => false,
        }
    }

    /// The urgent partial-order reduction (TASS paper Sec. 5.4, after Siegel's
    /// urgent algorithm): at a state where several processes can move, explore
    /// all the enabled steps of one *urgent* process `p` (the lowest rank that
    /// is) instead of every enabled step. `p` is urgent when the engine marks
    /// it `settled` (below) and each of its enabled steps is
    /// ([`RealEngine::safe_alone`])
    ///
    /// - a local step of a transition that touches only `p`'s own memory and
    ///   the read-only inputs ([`Access::Own`]: each process has its own copy
    ///   of every output; a write through a pointer counts as own when no
    ///   pointer of the model can reach another process's variables, `por.rs`),
    ///   or one that may touch shared memory (through such a pointer) while no
    ///   other process can reach a transition touching shared memory any more
    ///   ([`Access::Shared`]);
    /// - an MPI call from a fixed list that the engine marks `commutes`:
    ///   `MPI_Init` (always), `MPI_Finalize`/`Comm_rank`/`Comm_size`/`Get_count`/
    ///   `Request_free`, a receive or probe from one source with its message
    ///   there, the steps of `MPI_Sendrecv(_replace)` (post of the send half,
    ///   receive half, return) and of `MPI_Ssend` (post, return once its
    ///   message was received), `MPI_Bsend`/`MPI_Isend`, `MPI_Send`/
    ///   `MPI_Rsend`, `MPI_Issend`, `MPI_Irecv` (the post), `MPI_Wait(all|any)`
    ///   and `MPI_Test(all)`; with `--deadlock potential`, a
    ///   `MPI_Send`/`MPI_Rsend` only if [`RealEngine::urgent_send`] (its receiver
    ///   waits for exactly this message and cannot leave first) and a wait or
    ///   the return of a send-receive only if it does not complete by buffering. An MPI call that touches shared
    ///   memory is urgent only while no other process can reach such a
    ///   transition. The post of a nonblocking collective is urgent only while
    ///   no other process can still reach an `MPI_Test`/`MPI_Testall` (the last
    ///   post completes the other members' requests, which only a test can
    ///   see before it). Wildcard receives, blocking collectives,
    ///   `MPI_Iprobe`, the steps that split a path on an envelope that depends
    ///   on the inputs, and everything else are never urgent;
    /// - a progress step (a posted `MPI_Irecv` of `p` taking its message) from
    ///   one source (`commutes`).
    ///
    /// `settled` (`Step::settled`, computed by the engine) says that no other
    /// process can enable a new step of `p` where it is: every pending receive
    /// request of `p` has a fixed source and a message to take already (later
    /// messages from that source queue behind it, and only `p` takes them), and
    /// `p`'s next statement is enabled, or is a wait/test whose requests only
    /// `p`'s own progress steps complete (no nonblocking collective some member
    /// has not posted, no `MPI_Issend` not yet received: those complete by the
    /// others' steps). So with nonblocking operations, the point (1) below
    /// holds: the others cannot add a progress step of `p` (no receive of `p`
    /// waits for a message), nor enable `p`'s wait or change what its test
    /// reports. For (2): a progress step takes the first match of a channel
    /// only `p` reads and writes only `p`'s buffer; posting a receive changes
    /// only `p`'s requests (it may make another process's standard send one
    /// that needs no buffer, which matters only at a cut state, see (3));
    /// waits and tests of a settled `p` read only its own requests, and a
    /// completion once possible stays possible. For (3): a state where a
    /// progress step, a post or a test is enabled is never cut (the deadlock
    /// test counts them as moves), and a wait that completes only by buffering
    /// is left out of `A`. An urgent send's receiver must also have no pending
    /// posted receive (the message goes to exactly the receive it waits in).
    /// Other processes' posts that complete a nonblocking collective of `p`
    /// write only `p`'s requests, and `p`'s receive buffers hold the same
    /// "uninitialised" marker before and after; `p`'s local steps therefore
    /// commute with them (a write to the send buffer before the wait is
    /// reported at the wait in either order).
    ///
    /// Why nothing is lost (for each concrete input: the guards of `p`'s steps
    /// cover the path condition, so every concrete execution's next step of `p`
    /// is among them; branches of other processes only strengthen the path
    /// condition, which commutes). Call `A` the steps of `p` explored at `s`.
    /// (1) Every step of `p` that can follow some sequence of other processes'
    /// steps from `s` is in `A`: `p`'s location and local state do not change,
    /// and no other process can enable a new step of `p` there (wildcard
    /// receives, where a new sender could appear, are never urgent; a receive
    /// from one source takes the first matching message of that channel, which
    /// only `p` consumes; a guard reads only `p`'s memory unless the location
    /// is `Shared`, and then nobody else writes shared memory any more). (2) The
    /// steps of `A` commute with every step of the others and stay enabled
    /// while the others move (sends append to a channel, receives from `q` take
    /// its first match, local steps touch nothing another process touches).
    /// (3) With `--deadlock potential` the engine cuts the search at states
    /// where no process could move without buffering a blocking send; a state
    /// where a step of `A` is still enabled is never such a state: `A` holds no
    /// send or wait that needs a buffer (an urgent send stays matched, since its
    /// receiver cannot move without it). Hence the classic ample-set argument:
    /// take a path of the full space from `s` to a deadlock, a terminal state
    /// or a step with a violation. If it contains a step of `p`, the first one
    /// is in `A` by (1) and moves to the front by (2) (a cut state met on the
    /// way is itself a potential deadlock, found); if it contains none, a step
    /// of `A` stays enabled to its end by (2)-(3), so the end is neither
    /// terminal nor a deadlock, and for a violation the step of `A` can be
    /// taken first. The last case makes the path longer; the search's cycle
    /// proviso (every cycle of the explored space has a fully expanded state,
    /// `system.rs`) keeps that from going on forever, so every violation, every
    /// potential (or absolute) deadlock and every terminal state of the full
    /// space, hence every output, is found in the reduced one. (A failed check
    /// lets its path go on under the check's claim; a violation of another
    /// process that only that pruned part of the path reaches can then be
    /// missed, but the verdict is `violated` either way.)
    ///
    /// The condition in the paper is the same in spirit: a send the receiver
    /// does not wait for could hide a potential deadlock, so it is not urgent.
    fn reduce(&mut self, state: &State, steps: Vec<Step>) -> Vec<Step> {
        let Some(first) = steps.first() else {
            return steps;
        };
        if self.reduction == Reduction::Off {
            return steps;
        }
        if steps.iter().all(|s| s.process == first.process) {
            return steps;
        }
        let mut processes: Vec<usize> = steps.iter().map(|s| s.process).collect();
        processes.dedup();
        if self.urgent_choice == UrgentChoice::ShortestSnapshotQueue {
            processes.sort_by_key(|&p| state.snapshot_queue_len(p));
        }
        let statuses = self.engine.process_status(state);
        for p in processes {
            let mut mine = steps.iter().filter(|s| s.process == p);
            if mine.all(|s| self.safe_alone(state, s, &steps, &statuses)) {
                return steps.iter().filter(|s| s.process == p).cloned().collect();
            }
        }
        if self.deadlock == DeadlockMode::Potential {
            if let Some(synchronous) = self.synchronous_sends(state, &steps, &statuses) {
                return synchronous;
            }
        }
        steps
    }

    fn is_synchronous(&self, step: &Step) -> bool {
        step.delivered_to.is_some()
    }

    /// A process that just took a local step and whose next steps are again
    /// all local steps the reduction may explore alone
    /// ([`RealEngine::safe_alone`]: `settled`, and
    /// [`RealEngine::local_step_alone`]): its steps are returned without
    /// computing the other processes' (most of the time of a step when many
    /// processes wait in MPI calls). The reduction may choose any process
    /// whose steps are all safe alone; this keeps the one that is running
    /// instead of the lowest rank.
    fn steps_alone(
        &mut self,
        state: &State,
        last: Option<(usize, bool)>,
    ) -> Result<Option<Vec<Step>>, EngineError> {
        let Some((p, true)) = last else {
            return Ok(None);
        };
        if self.reduction == Reduction::Off {
            return Ok(None);
        }
        if self.urgent_choice == UrgentChoice::ShortestSnapshotQueue
            && crate::collective_assert::others_queue_less(&self.engine, state, p)
        {
            return Ok(None);
        }
        let mine = self.engine.enabled_of(state, p)?;
        let mut statuses = None;
        let alone = !mine.is_empty()
            && mine.iter().all(|s| {
                s.local
                    && s.settled
                    && s.request.is_none()
                    && self.local_step_alone(s, || {
                        let statuses =
                            statuses.get_or_insert_with(|| self.engine.process_status(state));
                        self.others_may_touch_shared(statuses, p, s)
                    })
            });
        Ok(alone.then_some(mine))
    }

    fn step_info(&self, step: &Step) -> StepInfo {
        let info = self.engine.step_info(step);
        StepInfo {
            span: info.span,
            process: step.process,
            source: info.source_text,
        }
    }

    fn is_local(&self, step: &Step) -> bool {
        // For the state-saving heuristic, MPI calls that only read or set the
        // process's own MPI data count as local: nothing is communicated.
        // (`MPI_Finalize` only ends the process's MPI phase; what is left
        // unreceived is checked at termination.)
        step.local
            || step.request.is_none()
                && mpi_call(&self.model, step.function, step.transition).is_some_and(|(lf, _)| {
                    matches!(
                        lf,
                        LibraryFunction::MpiInit
                            | LibraryFunction::MpiFinalize
                            | LibraryFunction::MpiCommRank
                            | LibraryFunction::MpiCommSize
                            | LibraryFunction::MpiWtime
                            | LibraryFunction::MpiGetCount
                    )
                })
    }

    fn guards_exclude_each_other(&mut self, state: &State, steps: &[Step]) -> bool {
        if steps.iter().any(|s| s.guard_known_true) {
            return false;
        }
        let f = Arc::clone(&self.factory);
        let pc = self.engine.path_condition(state);
        for (i, a) in steps.iter().enumerate() {
            for b in &steps[i + 1..] {
                let both = f.and(pc, f.and(a.guard, b.guard));
                if !self.prover.is_unsat(both) {
                    return false;
                }
            }
        }
        true
    }

    fn process_of(&self, step: &Step) -> usize {
        step.process
    }

    fn owner_of(&self, step: &Step) -> usize {
        step.delivered_to.unwrap_or(step.process)
    }

    fn path_condition(&self, state: &State) -> Value {
        Value::Data(self.engine.path_condition(state))
    }

    fn pretty(&self, value: &Value) -> String {
        self.engine.pretty_value(value)
    }

    fn pretty_condition(&self, condition: &Value) -> String {
        match self.data(condition) {
            Some(pc) => {
                let simplifier = self.simplifiers.simplifier(pc);
                if simplifier.is_contradictory() {
                    return "false".into();
                }
                self.factory.pretty(simplifier.equivalent_assumption())
            }
            None => self.pretty(condition),
        }
    }

    fn fixed_inputs(&self) -> Vec<(String, String)> {
        self.fixed.clone()
    }

    fn outputs(&mut self, state: &State) -> Vec<(String, Value)> {
        self.engine.outputs(state)
    }

    fn compare_output(
        &mut self,
        assumption: &Value,
        name: &str,
        spec: &Value,
        imp: &Value,
    ) -> Option<OutputMismatch<Value>> {
        let assumption = self.data(assumption).unwrap_or_else(|| self.factory.tt());
        let simplifier = self.simplifiers.simplifier(assumption);
        if simplifier.is_contradictory() {
            // The two paths cannot both be taken: nothing to compare.
            return None;
        }
        match (self.data(spec), self.data(imp)) {
            (Some(a), Some(b)) => {
                self.compare_data(&simplifier, assumption, name.to_string(), a, b)
            }
            _ if spec == imp => None,
            // Outputs that are not data (structs, pointers): equal only if identical.
            _ => Some(OutputMismatch {
                element: name.to_string(),
                spec: spec.clone(),
                imp: imp.clone(),
                answer: Equality::Unknown,
            }),
        }
    }

    fn output_values(&mut self, state: &State) -> Vec<(String, String)> {
        let pc = self.engine.path_condition(state);
        let simplifier = self.simplifiers.simplifier(pc);
        let mut out = Vec::new();
        for (name, value) in self.engine.outputs(state) {
            match self.data(&value) {
                Some(e) => self.flatten_output(&simplifier, name, e, 0, &mut out),
                None => out.push((name, self.engine.pretty_value(&value))),
            }
        }
        out
    }

    fn covers(&mut self, domain: &[Value], cover: &[Value]) -> Result<(), String> {
        let f = Arc::clone(&self.factory);
        let cover: Vec<Expr> = cover.iter().filter_map(|v| self.data(v)).collect();
        // One question per path of the specification, about the paths of the
        // implementation that can meet it: one disjunction of all paths on each side
        // would be a formula quadratic to build and simplify.
        let domain: Vec<Expr> = domain.iter().filter_map(|v| self.data(v)).collect();
        for path in domain {
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

    fn and(&self, a: &Value, b: &Value) -> Value {
        match (self.data(a), self.data(b)) {
            (Some(x), Some(y)) => Value::Data(self.factory.and(x, y)),
            (Some(_), None) => a.clone(),
            _ => b.clone(),
        }
    }

    fn disjoint(&mut self, a: &Value, b: &Value) -> bool {
        match (self.data(a), self.data(b)) {
            (Some(x), Some(y)) => self.fixed_values_refute(x, y) || self.fixed_values_refute(y, x),
            _ => false,
        }
    }

    fn counters(&self) -> (u64, u64, u64) {
        let stats = self.prover.stats();
        (stats.queries, stats.smt_calls(), self.factory.len() as u64)
    }

    fn input_names(&self) -> Vec<String> {
        self.model
            .inputs
            .iter()
            .map(|&v| self.model.var(v).name.clone())
            .collect()
    }

    fn joint_history(&self, state: &State) -> Vec<tass_state::api::JointPoint> {
        self.engine.joint_points(state)
    }

    fn set_spec_joint(&mut self, paths: Vec<(Value, Vec<tass_state::api::JointPoint>)>) {
        let paths = paths
            .into_iter()
            .filter(|(_, points)| !points.is_empty())
            .filter_map(|(pc, points)| Some((self.data(&pc)?, points)))
            .collect();
        self.engine.set_spec_joint_paths(paths);
    }

    fn check_joint(
        &mut self,
        state: &State,
        spec: &Vec<tass_state::api::JointPoint>,
        pc: &Value,
    ) -> Result<Option<Violation>, EngineError> {
        let Some(pc) = self.data(pc) else {
            return Ok(None);
        };
        let found = self.engine.check_joint(state, spec, pc)?;
        Ok(found.map(|mut v| {
            v.witness = v.witness.map(witness_values);
            v
        }))
    }

    fn no_witness_reason(&self) -> String {
        if self.builtin_only {
            "the built-in prover gives none (use --prover z3, cvc5 or yices for one)".into()
        } else {
            "the prover gave no model".into()
        }
    }
}

/// `tass verify`: checks every property of `model` run by `options.procs`
/// processes. Never panics on bad input: problems become a report with verdict
/// `error`.
pub fn verify(model: &Model, options: &Options) -> Report {
    use crate::collective_assert::{check_pragmas, Command};
    if let Err(e) = check_pragmas(model, Command::Verify, options.procs) {
        return Report::error(e.to_string());
    }
    let factory = ExprFactory::shared();
    let prover = match make_prover(&factory, &options.prover) {
        Ok(p) => p,
        Err(e) => return Report::error(e),
    };
    let model = Arc::new(model.clone());
    let mut engine = match RealEngine::new(model, &factory, &prover, options.procs, options) {
        Ok(e) => e,
        Err(e) => return Report::error(e),
    };
    verify_with(&mut engine, options, options.procs)
}

/// `tass compare`: checks that `imp` computes the same outputs as `spec` for every
/// input (over the reals), besides every property of both programs. The models'
/// signatures must agree ([`check_signatures`]); a mismatch is an `error` report.
pub fn compare(spec: &Model, imp: &Model, options: &Options) -> Report {
    if let Err(e) = check_signatures(spec, imp) {
        return Report::error(e);
    }
    use crate::collective_assert::{check_joint_pragmas, check_pragmas, Command};
    let joint = match check_joint_pragmas(spec, imp, options.spec_procs) {
        Ok(joint) => joint,
        Err(e) => return Report::error(e.to_string()),
    };
    for (model, command, procs) in [
        (spec, Command::CompareSpec, options.spec_procs),
        (imp, Command::Compare, options.impl_procs),
    ] {
        if let Err(e) = check_pragmas(model, command, procs) {
            return Report::error(e.to_string());
        }
    }
    let factory = ExprFactory::shared();
    let prover = match make_prover(&factory, &options.prover) {
        Ok(p) => p,
        Err(e) => return Report::error(e),
    };
    let spec_model = Arc::new(spec.clone());
    let impl_model = Arc::new(imp.clone());
    let mut s = match RealEngine::new(spec_model, &factory, &prover, options.spec_procs, options) {
        Ok(e) => e,
        Err(e) => return Report::error(e),
    };
    let mut i = match RealEngine::new(
        Arc::clone(&impl_model),
        &factory,
        &prover,
        options.impl_procs,
        options,
    ) {
        Ok(e) => e,
        Err(e) => return Report::error(e),
    };
    if joint {
        s.engine.record_joint_snapshots();
        i.engine.record_joint_snapshots();
    }
    crate::compare::compare_with(&mut s, &mut i, &impl_model, options)
}

#[cfg(test)]
mod tests {
    use super::witness_value;

    #[test]
    fn witness_values_read_back_with_dash_i() {
        assert_eq!(witness_value("7"), "7");
        assert_eq!(witness_value("1/2"), "0.5");
        assert_eq!(witness_value("-3/4"), "-0.75");
        assert_eq!(witness_value("5/1"), "5");
        assert_eq!(witness_value("1/3"), "1/3");
        assert_eq!(witness_value("7/20"), "0.35");
    }
}
