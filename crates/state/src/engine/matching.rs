//! What set-based state matching (`--match set|subsume`, the paper on explicit
//! control and symbolic data) needs of a state: its *control part* (locations,
//! call stacks' shapes, message envelopes, heap shapes, every concrete value)
//! and its *data part* (the symbolic values, in a fixed order, and the path
//! condition). Two states with equal control parts differ only in the data
//! their symbolic values stand for; the verifier asks the prover whether those
//! sets are equal (or included).
//!
//! An input's value is part of the data only while some statement a process
//! can still reach may read it: the inputs are read-only, so one that no
//! reachable statement reads cannot influence the future, and leaving it out
//! lets the state `l = (l0 + 1) % r` match `l = l0` once `l = l0` has run.

use std::collections::HashMap;
use std::sync::Arc;

use tass_dynamic::api::{HeapObject, Message, Value};
use tass_model::api::{
    Callee, Expr as ModelExpr, ExprKind, FunctionId, LtlAtom, LtlFormula, Model, Statement, Type,
    VarId,
};
use tass_symbolic::api::{Expr, ExprFactory};

use super::Engine;
use crate::state::{ProcState, State, Status, SystemState};

/// A state split for set-based matching.
#[derive(Clone, Debug)]
pub struct ControlData {
    /// The state with every symbolic value replaced by a placeholder symbol
    /// `__tass_slotK` of the same type (K numbers the slots in order), dead
    /// inputs made undefined and the path condition `true`: states with equal
    /// control parts differ only in their data.
    pub control: State,
    /// The symbolic values, slot by slot.
    pub data: Vec<Expr>,
    /// The path condition.
    pub pc: Expr,
}

/// Per function and location, the inputs a statement reachable from there
/// (through calls too) may read.
#[derive(Debug)]
pub(crate) struct InputLiveness {
    /// Inputs read where no location analysis applies (their address is
    /// taken, an `ltl` atom or a loop invariant names them): always live.
    pinned: Vec<bool>,
    /// `live[function][location][input]`.
    live: Vec<Vec<Vec<bool>>>,
}

impl InputLiveness {
    fn new(model: &Model) -> InputLiveness {
        let index: HashMap<VarId, usize> = model
            .inputs
            .iter()
            .enumerate()
            .map(|(k, &v)| (v, k))
            .collect();
        let n = index.len();
        let mut pinned = vec![false; n];
        let mut pin_all = false;
        // Reads of each transition (calls not yet included).
        let mut reads: Vec<Vec<Vec<bool>>> = Vec::new();
        for f in &model.functions {
            let Some(body) = &f.body else {
                reads.push(Vec::new());
                continue;
            };
            if body.graph.node_weights().any(|l| !l.invariants.is_empty()) {
                pin_all = true;
            }
            let mut per = Vec::new();
            for t in body.graph.edge_weights() {
                let mut r = vec![false; n];
                let mut note = |e: &ModelExpr| mentions(model, e, &index, &mut r, &mut pinned);
                note(&t.guard);
                match statement_exprs(&t.statement) {
                    Some(es) => es.into_iter().for_each(&mut note),
                    None => pin_all = true,
                }
                if let Statement::Declare { var } = &t.statement {
                    type_mentions(model, &model.var(*var).ty, &index, &mut r, &mut pinned);
                }
                if let Statement::Allocate { elem_type, .. }
                | Statement::Reallocate { elem_type, .. } = &t.statement
                {
                    type_mentions(model, elem_type, &index, &mut r, &mut pinned);
                }
                per.push(r);
            }
            reads.push(per);
        }
        for property in &model.ltl {
            formula_mentions(model, &property.formula, &index, &mut pinned);
        }
        if pin_all {
            pinned = vec![true; n];
        }
        let may_read = functions_may_read(model, &reads, n);
        let live = model
            .functions
            .iter()
            .enumerate()
            .map(|(fi, f)| match &f.body {
                None => Vec::new(),
                Some(body) => locations_live(body, &reads[fi], &may_read, n),
            })
            .collect();
        InputLiveness { pinned, live }
    }

    /// Whether input `k` may still be read by some process of `state`.
    fn is_live(&self, state: &SystemState, k: usize) -> bool {
        if self.pinned[k] {
            return true;
        }
        state.procs.iter().any(|ps| {
            ps.stack.iter().any(|frame| {
                self.live
                    .get(frame.function.0 as usize)
                    .and_then(|f| f.get(frame.location.index()))
                    .is_none_or(|inputs| inputs[k])
            })
        })
    }
}

/// Per function, the inputs its body or its callees may read.
fn functions_may_read(model: &Model, reads: &[Vec<Vec<bool>>], n: usize) -> Vec<Vec<bool>> {
    let mut may: Vec<Vec<bool>> = reads
        .iter()
        .map(|per| {
            let mut all = vec![false; n];
            for r in per {
                or_into(&mut all, r);
            }
            all
        })
        .collect();
    loop {
        let mut changed = false;
        for (fi, f) in model.functions.iter().enumerate() {
            let Some(body) = &f.body else { continue };
            for t in body.graph.edge_weights() {
                if let Statement::Call {
                    callee: Callee::User(g),
                    ..
                } = &t.statement
                {
                    let callee = may[g.0 as usize].clone();
                    changed |= or_into(&mut may[fi], &callee);
                }
            }
        }
        if !changed {
            return may;
        }
    }
}

/// Per location of `body`, the inputs a path from there may read.
fn locations_live(
    body: &tass_model::api::Body,
    reads: &[Vec<bool>],
    may_read: &[Vec<bool>],
    n: usize,
) -> Vec<Vec<bool>> {
    let mut live = vec![vec![false; n]; body.graph.node_count()];
    loop {
        let mut changed = false;
        for id in body.graph.edge_indices() {
            let Some((source, target)) = body.graph.edge_endpoints(id) else {
                continue;
            };
            let mut here = reads[id.index()].clone();
            if let Statement::Call {
                callee: Callee::User(FunctionId(g)),
                ..
            } = &body.graph[id].statement
            {
                or_into(&mut here, &may_read[*g as usize]);
            }
            let after = live[target.index()].clone();
            or_into(&mut here, &after);
            changed |= or_into(&mut live[source.index()], &here);
        }
        if !changed {
            return live;
        }
    }
}

fn or_into(into: &mut [bool], from: &[bool]) -> bool {
    let mut changed = false;
    for (a, &b) in into.iter_mut().zip(from) {
        if b && !*a {
            *a = true;
            changed = true;
        }
    }
    changed
}

/// The expressions of a statement; `None` for a statement whose reads are not
/// listed here (a loop invariant): then every input counts as live.
fn statement_exprs(s: &Statement) -> Option<Vec<&ModelExpr>> {
    Some(match s {
        Statement::Noop | Statement::Declare { .. } => Vec::new(),
        Statement::Assign { lhs, rhs } => vec![lhs, rhs],
        Statement::Assert { condition, .. }
        | Statement::Assume { condition }
        | Statement::CollectiveAssert { condition, .. } => vec![condition],
        Statement::Call { lhs, args, .. } => lhs.iter().chain(args).collect(),
        Statement::Return { value } => value.iter().collect(),
        Statement::Allocate { lhs, count, .. } => vec![lhs, count],
        Statement::Reallocate {
            lhs,
            pointer,
            count,
            ..
        } => vec![lhs, pointer, count],
        Statement::Free { pointer } => vec![pointer],
        Statement::LoopInvariant(_) => return None,
    })
}

/// Marks the inputs `e` reads in `reads`, and those whose address it takes in
/// `pinned` (a pointer may read them anywhere).
fn mentions(
    model: &Model,
    e: &ModelExpr,
    index: &HashMap<VarId, usize>,
    reads: &mut [bool],
    pinned: &mut [bool],
) {
    e.visit(&mut |x| {
        match &x.kind {
            ExprKind::Var(v) | ExprKind::RemoteVar { var: v, .. } => {
                if let Some(&k) = index.get(v) {
                    reads[k] = true;
                }
            }
            ExprKind::SizeOf(ty) => type_mentions(model, ty, index, reads, pinned),
            ExprKind::AddressOf(inner) | ExprKind::Decay(inner) => {
                inner.visit(&mut |y| {
                    if let ExprKind::Var(v) = &y.kind {
                        if let Some(&k) = index.get(v) {
                            pinned[k] = true;
                        }
                    }
                });
            }
            _ => {}
        }
        type_mentions(model, &x.ty, index, reads, pinned);
    });
}

/// Marks the inputs the extents of `ty` read.
fn type_mentions(
    model: &Model,
    ty: &Type,
    index: &HashMap<VarId, usize>,
    reads: &mut [bool],
    pinned: &mut [bool],
) {
    if let Type::Array(elem, extent) = ty {
        if let Some(extent) = extent {
            mentions(model, extent, index, reads, pinned);
        }
        type_mentions(model, elem, index, reads, pinned);
    }
}

fn formula_mentions(
    model: &Model,
    f: &LtlFormula,
    index: &HashMap<VarId, usize>,
    pinned: &mut [bool],
) {
    use LtlFormula as L;
    let mut scratch = vec![false; pinned.len()];
    match f {
        L::Constant(_) => {}
        L::Atom(LtlAtom::Condition(c)) => {
            mentions(model, c, index, &mut scratch, pinned);
        }
        L::Atom(LtlAtom::At { rank, .. } | LtlAtom::Terminated { rank }) => {
            mentions(model, rank, index, &mut scratch, pinned);
        }
        _ => {
            for g in f.operands() {
                formula_mentions(model, g, index, pinned);
            }
        }
    }
    or_into(pinned, &scratch);
}

/// Replaces the symbolic values of a state by numbered placeholders.
struct Slots<'f> {
    factory: &'f ExprFactory,
    data: Vec<Expr>,
}

impl Slots<'_> {
    fn expr(&mut self, e: Expr) -> Expr {
        let f = self.factory;
        // A value without symbols (a concrete array, say) is control.
        if f.is_concrete(e) || f.free_symbols(e).is_empty() {
            return e;
        }
        let k = self.data.len();
        self.data.push(e);
        f.symbol(&format!("__tass_slot{k}"), f.type_of(e))
    }

    fn value(&mut self, v: &Value) -> Value {
        v.map(&mut |p| p.clone(), &mut |e| self.expr(e))
    }

    fn values(&mut self, vs: &[Value]) -> Vec<Value> {
        vs.iter().map(|v| self.value(v)).collect()
    }

    /// The process with its values replaced; `None` when it holds symbolic
    /// values outside variables, heap and messages (an exit code, MPI
    /// requests, ...): such states are matched syntactically only.
    fn process(&mut self, ps: &ProcState) -> Option<ProcState> {
        let f = self.factory;
        if let Status::Terminated {
            exit_code: Some(code),
            ..
        } = &ps.status
        {
            if !f.is_concrete(*code) {
                return None;
            }
        }
        let mpi = &ps.mpi;
        let mpi_concrete = mpi.requests.is_empty()
            && mpi.wtime.is_none()
            && mpi.thread_level.is_none_or(|e| f.is_concrete(e))
            && mpi.attached.is_none()
            && mpi.ops.is_empty()
            && mpi.datatypes.is_empty();
        if !mpi_concrete {
            return None;
        }
        let globals = self.values(&ps.globals);
        let stack = ps
            .stack
            .iter()
            .map(|frame| {
                let mut fr = (**frame).clone();
                fr.locals = self.values(&frame.locals);
                Arc::new(fr)
            })
            .collect();
        let mut heap = Vec::new();
        for object in ps.heap.iter() {
            heap.push(match object {
                HeapObject::Live {
                    value,
                    extent,
                    elem,
                } => {
                    if !f.is_concrete(*extent) {
                        return None;
                    }
                    HeapObject::Live {
                        value: self.value(value),
                        extent: *extent,
                        elem: *elem,
                    }
                }
                other => other.clone(),
            });
        }
        Some(ProcState {
            status: ps.status.clone(),
            globals: Arc::new(globals),
            stack,
            heap: Arc::new(heap),
            mpi: ps.mpi.clone(),
            program_args: ps.program_args.clone(),
        })
    }

    fn message(&mut self, m: &Message) -> Option<Message> {
        if !self.factory.is_concrete(m.tag) || !self.factory.is_concrete(m.count) {
            return None;
        }
        let mut out = m.clone();
        out.data = self.value(&m.data);
        Some(out)
    }
}

impl Engine {
    /// `state` split into its control part and its data part, for set-based
    /// matching; `None` when the state holds symbolic values this split does
    /// not cover (snapshot queues, one-sided windows, MPI requests, symbolic
    /// exit codes, tags or extents): such a state is matched syntactically.
    pub fn control_and_data(&mut self, state: &State) -> Option<ControlData> {
        let s = &state.inner;
        if !s.snapshots.is_empty() || !s.windows.is_empty() {
            return None;
        }
        let liveness = Arc::clone(
            self.input_liveness
                .get_or_insert_with(|| Arc::new(InputLiveness::new(&self.model))),
        );
        let f = Arc::clone(&self.factory);
        let mut slots = Slots {
            factory: &f,
            data: Vec::new(),
        };
        let shared: Vec<Value> = s
            .shared
            .iter()
            .enumerate()
            .map(|(k, v)| {
                if liveness.is_live(s, k) {
                    slots.value(v)
                } else {
                    Value::Undefined
                }
            })
            .collect();
        let mut procs = Vec::new();
        for ps in &s.procs {
            procs.push(Arc::new(slots.process(ps)?));
        }
        let mut messages = Vec::new();
        for m in s.messages.iter() {
            messages.push(slots.message(m)?);
        }
        let control = State::new(SystemState {
            pc: f.tt(),
            shared: Arc::new(shared),
            procs,
            messages: Arc::new(messages),
            comms: Arc::clone(&s.comms),
            windows: Arc::clone(&s.windows),
            snapshots: s.snapshots.clone(),
        })
        .seal();
        Some(ControlData {
            control,
            data: slots.data,
            pc: s.pc,
        })
    }
}
