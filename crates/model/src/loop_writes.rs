//! Loop-invariant symbolic execution (LISE), the model's part: the write set
//! of a loop that carries an invariant pragma, and the marking of its back
//! edges.
//!
//! A loop head with an invariant has one entry edge, the
//! [`Statement::LoopInvariant`] the front end emits before the head
//! ([`LoopArrival::Entry`]); every other edge into the head comes from the
//! loop body and becomes a [`LoopArrival::Return`] statement. The engine
//! checks the invariant on both, gives the written objects fresh values on
//! entry and ends the path on a return (classic LISE: the back edges are cut,
//! so an unbounded loop is explored once, for every iteration count).
//!
//! Soundness rests on the write set being a superset of what one iteration
//! may change. It is computed syntactically over every edge of the loop body
//! (the locations on a cycle through the head), including, transitively, the
//! bodies of the user functions it calls: a write whose target is a named
//! variable adds that variable; a write through a pointer variable that the
//! loop never assigns adds the whole object that pointer points to on entry
//! ([`WriteTarget::PointeeOf`]); anything else (a write through a pointer the
//! analysis cannot pin down, an allocation or `free` in the loop) is refused
//! with a message, never guessed.

use std::collections::{BTreeSet, HashSet};

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::expr::{BinaryOp, Expr, ExprKind};
use crate::mpi::ArgRole;
use crate::program::{
    Body, FunctionId, Location, LocationId, LocationKind, Model, VarId, VarScope,
};
use crate::span::Span;
use crate::stmt::{Callee, LoopArrival, Statement, Transition};
use crate::types::Type;

/// An object one iteration of an invariant loop may modify.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WriteTarget {
    /// The whole variable (a local of the loop's function or a global).
    Var(VarId),
    /// The whole object (variable or heap block) that this pointer variable
    /// points into when the loop is entered; the loop never assigns it.
    PointeeOf(VarId),
}

/// Why a loop's write set could not be computed (the loop is refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteSetError {
    /// The offending construct.
    pub span: Span,
    /// What is wrong and what to do.
    pub message: String,
}

/// For every loop head with an invariant in every function of `model`: marks
/// the back edges ([`LoopArrival::Return`]) and stores the write set in the
/// entry and return statements, or, where the analysis cannot compute it, why
/// (`LoopInvariant::refused`: the model is still fine to show; `verify`
/// refuses the run). Errors are malformed invariants (two on one loop).
pub fn prepare_loop_invariants(model: &mut Model) -> Result<(), Vec<WriteSetError>> {
    let mut errors = Vec::new();
    for fi in 0..model.functions.len() {
        let Some(body) = model.functions[fi].body.as_ref() else {
            continue;
        };
        let heads: Vec<LocationId> = body
            .graph
            .node_indices()
            .filter(|&l| !body.graph[l].invariants.is_empty())
            .collect();
        for head in heads {
            match loop_plan(model, FunctionId(fi as u32), head) {
                Ok(plan) => apply(model, fi, head, plan),
                Err(e) => errors.push(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

struct LoopPlan {
    writes: Result<(Vec<WriteTarget>, Option<Span>), WriteSetError>,
    back_edges: Vec<petgraph::graph::EdgeIndex<u32>>,
}

fn loop_plan(model: &Model, func: FunctionId, head: LocationId) -> Result<LoopPlan, WriteSetError> {
    let body = model.function(func).body.as_ref().expect("a body");
    let invariant = &body.graph[head].invariants;
    if invariant.len() > 1 {
        return Err(WriteSetError {
            span: invariant[1].span.clone(),
            message: format!(
                "loop has two invariants (`{}` and `{}`): join them into one with &&",
                invariant[0].id, invariant[1].id
            ),
        });
    }
    let in_loop = loop_locations(body, head);
    let mut back_edges = Vec::new();
    for e in body.graph.edges_directed(head, Direction::Incoming) {
        if !in_loop.contains(&e.source()) || is_entry(&e.weight().statement) {
            continue;
        }
        back_edges.push(e.id());
    }
    Ok(LoopPlan {
        writes: write_set(model, func, head, &in_loop),
        back_edges,
    })
}

/// What one iteration of the loop at `head` may change.
fn write_set(
    model: &Model,
    func: FunctionId,
    head: LocationId,
    in_loop: &HashSet<LocationId>,
) -> Result<(Vec<WriteTarget>, Option<Span>), WriteSetError> {
    let body = model.function(func).body.as_ref().expect("a body");
    let invariant = &body.graph[head].invariants;
    let span = invariant[0].span.clone();
    // The loop must be entered only through its entry edge: a path that jumps
    // into the body (a `goto`) would reach the cut back edge without the fresh
    // values, and what it does after would never be explored.
    for e in body.graph.edge_references() {
        if in_loop.contains(&e.target())
            && !in_loop.contains(&e.source())
            && !(e.target() == head && is_entry(&e.weight().statement))
        {
            return Err(WriteSetError {
                span: e.weight().span.clone(),
                message: format!(
                    "this jumps into the loop of invariant `{}` other than through its start: \
                     a loop with an invariant must be entered from before it",
                    invariant[0].id
                ),
            });
        }
    }
    let mut scan = WriteScan {
        model,
        targets: BTreeSet::new(),
        visited: HashSet::new(),
        loop_function: func,
        communication: None,
    };
    for e in body.graph.edge_references() {
        if in_loop.contains(&e.source()) && in_loop.contains(&e.target()) {
            scan.statement(&e.weight().statement, &e.weight().span, Frame::Loop)?;
        }
    }
    // A pointer whose pointee is havocked must keep pointing at the same
    // object: the loop may not assign it.
    for t in &scan.targets {
        if let WriteTarget::PointeeOf(p) = t {
            if scan.targets.contains(&WriteTarget::Var(*p)) {
                return Err(WriteSetError {
                    span,
                    message: format!(
                        "the loop writes through pointer `{}` and also assigns it: tass cannot tell which objects the loop changes; keep the pointer fixed and index it instead",
                        model.var(*p).name
                    ),
                });
            }
        }
    }
    Ok((scan.targets.into_iter().collect(), scan.communication))
}

/// The locations of the loop: reachable from `head` and reaching it again
/// without its entry edge. (Without that exception an enclosing loop, whose
/// cycles pass through the entry, would count as part of this one, and this
/// loop's entry as one of its back edges.)
fn loop_locations(body: &Body, head: LocationId) -> HashSet<LocationId> {
    let reach = |dir: Direction| {
        let mut seen = HashSet::from([head]);
        let mut todo = vec![head];
        while let Some(l) = todo.pop() {
            for e in body.graph.edges_directed(l, dir) {
                let n = match dir {
                    Direction::Outgoing => e.target(),
                    Direction::Incoming if l == head && is_entry(&e.weight().statement) => continue,
                    Direction::Incoming => e.source(),
                };
                if seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    };
    let forward = reach(Direction::Outgoing);
    let backward = reach(Direction::Incoming);
    forward.intersection(&backward).copied().collect()
}

/// The edge that enters a loop (before [`apply`] marks the back edges, every
/// invariant statement is an entry).
fn is_entry(st: &Statement) -> bool {
    matches!(st, Statement::LoopInvariant(inv) if inv.arrival == LoopArrival::Entry)
}

fn apply(model: &mut Model, fi: usize, head: LocationId, plan: LoopPlan) {
    let body = model.functions[fi].body.as_mut().expect("a body");
    let mut invariant = body.graph[head].invariants[0].clone();
    match plan.writes {
        Ok((writes, communication)) => {
            invariant.writes = writes;
            invariant.communication = communication;
        }
        Err(e) => invariant.refused = Some(e),
    }
    // the entry edge (the one `LoopInvariant` statement into the head)
    let entries: Vec<_> = body
        .graph
        .edges_directed(head, Direction::Incoming)
        .filter(|e| is_entry(&e.weight().statement))
        .map(|e| e.id())
        .collect();
    for e in entries {
        if let Statement::LoopInvariant(inv) = &mut body.graph[e].statement {
            inv.writes = invariant.writes.clone();
            inv.refused = invariant.refused.clone();
            inv.communication = invariant.communication.clone();
            inv.arrival = LoopArrival::Entry;
        }
    }
    let mut back = invariant.clone();
    back.arrival = LoopArrival::Return;
    let mut back_edges = plan.back_edges;
    // Removing an edge moves the last one into its index: take the largest
    // first, so the indices still to come stay valid.
    back_edges.sort_unstable_by(|a, b| b.cmp(a));
    for e in back_edges {
        if matches!(body.graph[e].statement, Statement::Noop) {
            body.graph[e].statement = Statement::LoopInvariant(back.clone());
            continue;
        }
        // the edge does something (`i++` straight into the head): the check
        // goes on a new edge after it
        let (source, _) = body.graph.edge_endpoints(e).expect("an edge");
        let old = body.graph.remove_edge(e).expect("an edge");
        let latch = body.graph.add_node(Location {
            kind: LocationKind::Plain,
            span: old.span.clone(),
            invariants: vec![],
        });
        let check = Transition {
            guard: Expr::true_at(old.span.clone()),
            statement: Statement::LoopInvariant(back.clone()),
            // where the iteration came back from (reports say which line)
            span: old.span.clone(),
            source_text: format!("#pragma TASS {} invariant {}", back.kind.keyword(), back.id),
        };
        body.graph.add_edge(source, latch, old);
        body.graph.add_edge(latch, head, check);
    }
    body.graph[head].invariants[0] = invariant;
}

/// Whose statement is scanned: the loop's own function, or a function it
/// calls (where a write through a pointer parameter is a write through the
/// caller's argument, which the call site already added).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    Loop,
    Callee(FunctionId),
}

struct WriteScan<'m> {
    model: &'m Model,
    targets: BTreeSet<WriteTarget>,
    visited: HashSet<FunctionId>,
    loop_function: FunctionId,
    /// The first MPI call of the loop that communicates (see
    /// [`communication_call`]).
    communication: Option<Span>,
}

impl WriteScan<'_> {
    fn refuse<T>(&self, span: &Span, message: String) -> Result<T, WriteSetError> {
        Err(WriteSetError {
            span: span.clone(),
            message,
        })
    }

    fn statement(
        &mut self,
        st: &Statement,
        span: &Span,
        frame: Frame,
    ) -> Result<(), WriteSetError> {
        match st {
            Statement::Noop
            | Statement::Assert { .. }
            | Statement::Assume { .. }
            | Statement::Return { .. }
            | Statement::CollectiveAssert { .. }
            | Statement::LoopInvariant(_) => Ok(()),
            Statement::Declare { var } => self.var_written(*var, frame),
            Statement::Assign { lhs, .. } => self.place(lhs, frame),
            Statement::Call { lhs, callee, args } => {
                if let Some(lhs) = lhs {
                    self.place(lhs, frame)?;
                }
                self.call(callee, args, span, frame)
            }
            Statement::Allocate { .. } | Statement::Reallocate { .. } | Statement::Free { .. } => {
                self.refuse(
                    span,
                    "a loop with an invariant may not allocate or free memory (tass cannot give the heap fresh values); move the allocation out of the loop".into(),
                )
            }
        }
    }

    fn var_written(&mut self, var: VarId, frame: Frame) -> Result<(), WriteSetError> {
        match (self.model.var(var).scope, frame) {
            // a callee's own locals live in its frame, gone when it returns
            (VarScope::Local(_), Frame::Callee(_)) => Ok(()),
            _ => {
                self.targets.insert(WriteTarget::Var(var));
                Ok(())
            }
        }
    }

    /// The object an lvalue writes.
    fn place(&mut self, lhs: &Expr, frame: Frame) -> Result<(), WriteSetError> {
        match &lhs.kind {
            ExprKind::Var(v) => self.var_written(*v, frame),
            ExprKind::Field(inner, _) => self.place(inner, frame),
            ExprKind::Index(base, _) if matches!(base.ty, Type::Array(..)) => {
                self.place(base, frame)
            }
            ExprKind::Index(base, _) | ExprKind::Deref(base) => self.pointee(base, frame),
            _ => self.refuse(
                &lhs.span,
                "tass cannot tell what this write changes, so the loop's invariant cannot be used"
                    .into(),
            ),
        }
    }

    /// The object a pointer expression points into, as written through it.
    fn pointee(&mut self, pointer: &Expr, frame: Frame) -> Result<(), WriteSetError> {
        match &pointer.kind {
            ExprKind::AddressOf(place) | ExprKind::Decay(place) => self.place(place, frame),
            ExprKind::Cast(inner) => self.pointee(inner, frame),
            ExprKind::Binary(BinaryOp::PointerAdd | BinaryOp::PointerSub, p, _) => {
                self.pointee(p, frame)
            }
            ExprKind::Var(p) => match (self.model.var(*p).scope, frame) {
                (VarScope::Local(_), Frame::Callee(g))
                    if self.model.function(g).params.contains(p) =>
                {
                    // the caller added its argument's object; the parameter must
                    // still point there
                    if self.callee_assigns(g, *p) {
                        self.refuse(
                            &pointer.span,
                            format!(
                                "`{}` writes through its parameter `{}` after changing it: tass cannot tell which objects a loop calling it changes",
                                self.model.function(g).name,
                                self.model.var(*p).name
                            ),
                        )
                    } else {
                        Ok(())
                    }
                }
                (VarScope::Local(f), Frame::Callee(g)) if f == g && self.param_alias(g, *p) => {
                    // `int *b = inout;`: a copy of a parameter points where the
                    // parameter does, which the caller's argument covers
                    Ok(())
                }
                (VarScope::Local(f), Frame::Loop) if f == self.loop_function => {
                    self.targets.insert(WriteTarget::PointeeOf(*p));
                    Ok(())
                }
                (VarScope::ProcessGlobal | VarScope::Output, Frame::Loop) => {
                    self.targets.insert(WriteTarget::PointeeOf(*p));
                    Ok(())
                }
                _ => self.unpinned(pointer),
            },
            _ => self.unpinned(pointer),
        }
    }

    fn unpinned<T>(&self, pointer: &Expr) -> Result<T, WriteSetError> {
        self.refuse(
            &pointer.span,
            format!(
                "the loop writes through `{}`, which tass cannot pin to an object, so it cannot compute what the loop changes; write through a pointer variable the loop does not assign",
                crate::render::render_expr(self.model, pointer)
            ),
        )
    }

    /// Whether local `q` of `g` only ever holds a copy of one of `g`'s
    /// parameters (cast, or moved by pointer arithmetic within its object),
    /// a parameter `g` never assigns; and `&q` is never taken, so nothing
    /// else can change it.
    fn param_alias(&self, g: FunctionId, q: VarId) -> bool {
        let function = self.model.function(g);
        let Some(body) = function.body.as_ref() else {
            return false;
        };
        let mut assigned = false;
        for e in body.graph.edge_references() {
            let t = e.weight();
            let mut address_taken = false;
            let mut look = |x: &Expr| {
                x.visit(&mut |y| {
                    if let ExprKind::AddressOf(inner) = &y.kind {
                        if matches!(inner.kind, ExprKind::Var(v) if v == q) {
                            address_taken = true;
                        }
                    }
                })
            };
            look(&t.guard);
            match &t.statement {
                Statement::Assign { lhs, rhs } => {
                    look(lhs);
                    look(rhs);
                    if matches!(lhs.kind, ExprKind::Var(v) if v == q) {
                        match copied_pointer(rhs) {
                            Some(p)
                                if function.params.contains(&p) && !self.callee_assigns(g, p) =>
                            {
                                assigned = true
                            }
                            _ => return false,
                        }
                    }
                }
                Statement::Call { lhs, args, .. } => {
                    if let Some(lhs) = lhs {
                        if matches!(lhs.kind, ExprKind::Var(v) if v == q) {
                            return false;
                        }
                        look(lhs);
                    }
                    args.iter().for_each(&mut look);
                }
                Statement::Allocate { lhs, .. } | Statement::Reallocate { lhs, .. } if matches!(lhs.kind, ExprKind::Var(v) if v == q) => {
                    return false
                }
                Statement::Assert { condition, .. } | Statement::Assume { condition } => {
                    look(condition)
                }
                Statement::Return { value: Some(v) } => look(v),
                _ => {}
            }
            if address_taken {
                return false;
            }
        }
        assigned
    }

    /// The functions `MPI_Op_create` makes operators of anywhere in the
    /// program: a reduction with an operator that is not a built-in one runs
    /// one of them as program code (on the process that gets the result), so
    /// what they write is written by the loop.
    fn user_operators(&self, span: &Span) -> Result<Vec<FunctionId>, WriteSetError> {
        let mut functions = Vec::new();
        for f in &self.model.functions {
            let Some(body) = f.body.as_ref() else {
                continue;
            };
            for e in body.graph.edge_references() {
                let Statement::Call {
                    callee: Callee::Library(lf),
                    args,
                    ..
                } = &e.weight().statement
                else {
                    continue;
                };
                let Some(at) = lf.mpi().and_then(|d| d.position(ArgRole::UserFunction)) else {
                    continue;
                };
                match args.get(at).map(strip_casts).map(|a| &a.kind) {
                    Some(ExprKind::IntLit(k)) if *k >= 1 && (*k as usize) <= self.model.functions.len() => {
                        functions.push(FunctionId((*k - 1) as u32))
                    }
                    _ => {
                        return self.refuse(
                            span,
                            format!(
                                "a reduction with a user operator in a loop with an invariant, and the \
                                 `MPI_Op_create` at line {} names its function through a pointer: tass \
                                 cannot tell which function the reduction runs; pass the function by name",
                                e.weight().span.start_line
                            ),
                        )
                    }
                }
            }
        }
        Ok(functions)
    }

    /// Adds what one call of user function `g` writes.
    fn user_function(&mut self, g: FunctionId) -> Result<(), WriteSetError> {
        if !self.visited.insert(g) {
            return Ok(());
        }
        let Some(body) = self.model.function(g).body.as_ref() else {
            return Ok(());
        };
        for e in body.graph.edge_references() {
            self.statement(&e.weight().statement, &e.weight().span, Frame::Callee(g))?;
        }
        Ok(())
    }

    fn callee_assigns(&self, g: FunctionId, p: VarId) -> bool {
        let Some(body) = self.model.function(g).body.as_ref() else {
            return false;
        };
        body.graph
            .edge_references()
            .any(|e| match &e.weight().statement {
                Statement::Assign { lhs, .. } => matches!(lhs.kind, ExprKind::Var(v) if v == p),
                Statement::Call { lhs: Some(lhs), .. } => {
                    matches!(lhs.kind, ExprKind::Var(v) if v == p)
                }
                _ => false,
            })
    }

    fn call(
        &mut self,
        callee: &Callee,
        args: &[Expr],
        span: &Span,
        frame: Frame,
    ) -> Result<(), WriteSetError> {
        // The callee may write through any pointer argument (a library function
        // as much as a user one): its object is written, except the buffers an
        // MPI call only reads (a send's data).
        let read_only = match callee {
            Callee::Library(lf) if lf.is_mpi() => mpi_read_only_args(lf.c_name()),
            _ => &[],
        };
        for (k, a) in args.iter().enumerate() {
            if matches!(a.ty, Type::Pointer(_))
                && !is_string_literal(a)
                && !is_null(a)
                && !is_status_ignore(a)
                && !read_only.contains(&k)
            {
                self.pointee(a, frame)?;
            }
        }
        match callee {
            Callee::Library(lf)
                if lf.is_mpi()
                    && matches!(lf.c_name(), "MPI_Comm_rank" | "MPI_Comm_size" | "MPI_Wtime") =>
            {
                Ok(())
            }
            // Blocking communication: the loop's write set covers the buffers
            // it receives into; the messages and requests are checked when
            // every process is back at the loop head (the collective form,
            // `tass-state`'s `loop_sync.rs`, which also refuses such loops
            // with one process).
            Callee::Library(lf) if lf.is_mpi() && communication_call(lf.c_name()) => {
                self.communication.get_or_insert_with(|| span.clone());
                let op = lf.mpi().and_then(|d| d.position(ArgRole::Op));
                let user_op = op
                    .and_then(|k| args.get(k))
                    .is_some_and(|a| !matches!(strip_casts(a).kind, ExprKind::LibraryConstant(_)));
                if user_op {
                    for g in self.user_operators(span)? {
                        self.user_function(g)?;
                    }
                }
                Ok(())
            }
            // Other MPI calls change MPI state that is not a variable the
            // loop's entry could give fresh values (communicators, windows,
            // datatypes), or their outcome depends on timing (tests, probes).
            Callee::Library(lf) if lf.is_mpi() => self.refuse(
                span,
                format!(
                    "`{}` in a loop with an invariant: tass summarises loops whose MPI calls are \
                     blocking point-to-point or collective communication (MPI_Send, MPI_Recv, \
                     MPI_Sendrecv, MPI_Barrier, MPI_Bcast, MPI_Reduce, ...); bound the loop instead",
                    lf.c_name()
                ),
            ),
            Callee::Library(_) => Ok(()),
            Callee::System(_) => self.refuse(
                span,
                "a loop with an invariant may not call a system function".into(),
            ),
            Callee::User(g) => self.user_function(*g),
        }
    }
}

fn strip_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) => strip_casts(inner),
        _ => e,
    }
}

/// The pointer variable `e` copies: `p`, `(T *)p`, `p + k`.
fn copied_pointer(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Cast(inner) => copied_pointer(inner),
        ExprKind::Binary(BinaryOp::PointerAdd | BinaryOp::PointerSub, p, _) => copied_pointer(p),
        _ => None,
    }
}

fn is_string_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::StringLit(_) => true,
        ExprKind::Decay(inner) | ExprKind::Cast(inner) => is_string_literal(inner),
        _ => false,
    }
}

/// The MPI calls a loop with a collective invariant may make: blocking
/// communication whose effect on the MPI state (messages, requests) is
/// complete when the call returns or is checked at the loop head.
fn communication_call(name: &str) -> bool {
    matches!(
        name,
        "MPI_Send"
            | "MPI_Ssend"
            | "MPI_Rsend"
            | "MPI_Recv"
            | "MPI_Sendrecv"
            | "MPI_Sendrecv_replace"
            | "MPI_Barrier"
            | "MPI_Bcast"
            | "MPI_Reduce"
            | "MPI_Allreduce"
            | "MPI_Gather"
            | "MPI_Scatter"
            | "MPI_Allgather"
            | "MPI_Alltoall"
    )
}

/// The pointer arguments an MPI call only reads (the data sent).
fn mpi_read_only_args(name: &str) -> &'static [usize] {
    match name {
        "MPI_Send" | "MPI_Ssend" | "MPI_Rsend" | "MPI_Sendrecv" | "MPI_Reduce"
        | "MPI_Allreduce" | "MPI_Gather" | "MPI_Scatter" | "MPI_Allgather" | "MPI_Alltoall" => &[0],
        _ => &[],
    }
}

/// `MPI_STATUS_IGNORE`: a status the call does not write.
fn is_status_ignore(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::LibraryConstant(c) => {
            matches!(c.c_name(), "MPI_STATUS_IGNORE" | "MPI_STATUSES_IGNORE")
        }
        ExprKind::Cast(inner) => is_status_ignore(inner),
        _ => false,
    }
}

fn is_null(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::NullPointer => true,
        ExprKind::Cast(inner) => is_null(inner),
        _ => false,
    }
}
