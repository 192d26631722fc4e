//! `--worker-symmetry`, the static half: which ranks are interchangeable, and
//! where a state holds rank values (a taint analysis of the model).
//!
//! All processes run one program; what tells them apart is the rank. A rank
//! enters the program in two ways only: `MPI_Comm_rank(MPI_COMM_WORLD, &v)`
//! writes it into `v` (a *rank variable*), and a receive or probe writes the
//! sender's rank into the `MPI_SOURCE` field of a status variable. The
//! analysis admits a program only if every rank value, wherever it flows, is
//! used in ways that a renaming of ranks commutes with:
//!
//! - compared with `==`/`!=` to an integer literal `c` (then `c` is *named*:
//!   it is left out of the interchangeable set) or to another rank value
//!   (equality is kept by any bijection);
//! - passed as the destination or source of a point-to-point call;
//! - copied into another rank variable (which must hold nothing but ranks
//!   and literals).
//!
//! Anything else is refused by name: arithmetic, ordering comparisons,
//! indexing, taking the address of a rank variable or of a status (other than
//! as an MPI call's status argument), copying a whole status, passing a rank
//! to a function, printing it, asserting on it otherwise than `==`/`!=`
//! against a literal, `PID` and `PROC[e]` in pragmas, collective and joint
//! pragmas, loop invariants, ltl formulas. Every MPI call must be one of a
//! small list on `MPI_COMM_WORLD`; peers and roots must be literals, the
//! `MPI_ANY_SOURCE`/`MPI_PROC_NULL` constants or rank values (roots: literals
//! only); reductions only over integer types with a built-in commutative
//! operation (their value is then the same function of the contributions in
//! any rank order; floating reductions fold in rank order, a different tree
//! under herbrand). A literal used as a peer (`MPI_Send(.., 0, ..)`) names
//! that rank too.
//!
//! The interchangeable set `W` is the ranks `1..n` no literal names (rank 0,
//! whose outputs `compare` takes, is never in it).

use hashbrown::{HashMap, HashSet};
use tass_model::api::{
    mpi::ArgRole, BinaryOp, Callee, Comparison, Expr, ExprKind, FunctionId, LibraryConstant,
    LibraryFunction, Model, Statement, Type, VarId, VarScope,
};

/// Where a process state holds a rank value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RankSlot {
    /// The variable's value is a rank (a rank variable).
    Value(usize),
    /// Field 0 (`MPI_SOURCE`) of the status struct in this slot.
    StatusSource(usize),
}

/// The interchangeable ranks of a model run by `n` processes and where its
/// states hold ranks (`crate::worker_symmetry` builds the representatives).
#[derive(Clone, Debug)]
pub struct WorkerSymmetry {
    /// The interchangeable ranks, ascending (at least two).
    pub(crate) workers: Vec<u32>,
    /// The number of processes.
    pub(crate) nprocs: u32,
    /// Rank slots among a process's globals (`Model::globals ++ outputs`).
    pub(crate) global_slots: Vec<RankSlot>,
    /// Rank slots among the locals (`params ++ locals`) of a function's frames.
    pub(crate) local_slots: HashMap<FunctionId, Vec<RankSlot>>,
}

impl WorkerSymmetry {
    /// The interchangeable ranks.
    pub fn workers(&self) -> &[u32] {
        &self.workers
    }

    /// The analysis of `model` run by `nprocs` processes, or why it refuses
    /// (a sentence naming the construct and its line).
    pub fn analyse(model: &Model, nprocs: usize) -> Result<WorkerSymmetry, String> {
        if !model.ltl.is_empty() {
            return Err("the program has ltl formulas".into());
        }
        let mut taint = Taint::new(model)?;
        taint.find_rank_variables()?;
        taint.check_every_use()?;
        let workers: Vec<u32> = (1..nprocs as u32)
            .filter(|r| !taint.named.contains(&i128::from(*r)))
            .collect();
        if workers.len() < 2 {
            return Err(format!(
                "fewer than two ranks of {nprocs} are interchangeable (the program names {})",
                named_list(&taint.named, nprocs)
            ));
        }
        Ok(taint.into_symmetry(workers, nprocs as u32))
    }
}

fn named_list(named: &HashSet<i128>, nprocs: usize) -> String {
    let mut v: Vec<i128> = named
        .iter()
        .copied()
        .filter(|c| (0..nprocs as i128).contains(c))
        .collect();
    v.sort_unstable();
    let list: Vec<String> = v.iter().map(|c| c.to_string()).collect();
    format!("rank(s) {}", list.join(", "))
}

struct Taint<'m> {
    model: &'m Model,
    status: Option<tass_model::api::StructId>,
    rank_vars: HashSet<VarId>,
    status_vars: HashSet<VarId>,
    /// Integer literals ranks are compared with or that name peers/roots.
    named: HashSet<i128>,
}

/// A refusal at `e`'s line.
fn at(model: &Model, e: &Expr, what: &str) -> String {
    let _ = model;
    format!("{what} at line {}", e.span.start_line)
}

/// `e` without conversions to `int`-kind types (a conversion to `char` or
/// `_Bool` may merge ranks, so it is kept: the rank under it is then refused).
fn strip_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) if matches!(e.ty, Type::Int(_)) => strip_casts(inner),
        _ => e,
    }
}

/// `e` without any conversion (for argument shapes: `&v`, constants).
fn strip_all_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) => strip_all_casts(inner),
        _ => e,
    }
}

fn int_literal(e: &Expr) -> Option<i128> {
    match &strip_casts(e).kind {
        ExprKind::IntLit(c) => Some(*c),
        ExprKind::Unary(tass_model::api::UnaryOp::Neg, inner) => int_literal(inner).map(|c| -c),
        ExprKind::LibraryConstant(c) => c.int_value().map(i128::from),
        _ => None,
    }
}

fn contains_status(
    model: &Model,
    ty: &Type,
    status: tass_model::api::StructId,
    depth: u32,
) -> bool {
    if depth > 16 {
        return true;
    }
    match ty {
        Type::Struct(id) => {
            *id == status
                || model.structs[id.0 as usize]
                    .fields
                    .iter()
                    .any(|f| contains_status(model, &f.ty, status, depth + 1))
        }
        Type::Array(t, _) | Type::Pointer(t) => contains_status(model, t, status, depth + 1),
        _ => false,
    }
}

impl<'m> Taint<'m> {
    fn new(model: &'m Model) -> Result<Taint<'m>, String> {
        let status = model.mpi_status_struct;
        let mut status_vars = HashSet::new();
        if let Some(st) = status {
            for v in &model.variables {
                if v.ty == Type::Struct(st)
                    && matches!(v.scope, VarScope::ProcessGlobal | VarScope::Local(_))
                {
                    status_vars.insert(v.id);
                } else if contains_status(model, &v.ty, st, 0) {
                    return Err(format!(
                        "`{}` (line {}) holds an MPI_Status inside an array, pointer or struct",
                        v.name, v.span.start_line
                    ));
                }
            }
        }
        Ok(Taint {
            model,
            status,
            rank_vars: HashSet::new(),
            status_vars,
            named: HashSet::new(),
        })
    }

    /// Every transition of every function body, with its guard.
    fn transitions(&self) -> Vec<&'m tass_model::api::Transition> {
        let mut out = Vec::new();
        for f in &self.model.functions {
            if let Some(body) = &f.body {
                for e in body.graph.edge_indices() {
                    out.push(&body.graph[e]);
                }
            }
        }
        out
    }

    /// Rank variables: the targets of `MPI_Comm_rank`, then (to a fixpoint)
    /// the variables assigned a rank value.
    fn find_rank_variables(&mut self) -> Result<(), String> {
        for t in self.transitions() {
            if let Statement::Call {
                callee: Callee::Library(LibraryFunction::MpiCommRank),
                args,
                ..
            } = &t.statement
            {
                match args.get(1).map(|a| &strip_all_casts(a).kind) {
                    Some(ExprKind::AddressOf(inner)) => match &inner.kind {
                        ExprKind::Var(v) if self.model.var(*v).ty.is_integer() => {
                            self.rank_vars.insert(*v);
                        }
                        _ => {
                            return Err(at(
                                self.model,
                                &args[1],
                                "MPI_Comm_rank writes the rank elsewhere than into a variable",
                            ))
                        }
                    },
                    _ => {
                        return Err(format!(
                            "MPI_Comm_rank writes the rank through a pointer at line {}",
                            t.span.start_line
                        ))
                    }
                }
            }
        }
        loop {
            let mut grew = false;
            for t in self.transitions() {
                if let Statement::Assign { lhs, rhs } = &t.statement {
                    if let ExprKind::Var(u) = &lhs.kind {
                        if self.is_rank(rhs) && self.rank_vars.insert(*u) {
                            grew = true;
                        }
                    }
                }
            }
            if !grew {
                break;
            }
        }
        // A parameter gets its first value from the call, not from an
        // assignment: it could hold a non-rank that the renaming would move.
        for f in &self.model.functions {
            if let Some(p) = f.params.iter().find(|p| self.rank_vars.contains(*p)) {
                let v = self.model.var(*p);
                return Err(format!(
                    "the parameter `{}` of `{}` (line {}) is assigned a rank",
                    v.name, f.name, v.span.start_line
                ));
            }
        }
        Ok(())
    }

    /// A rank value: a rank variable or a status's `MPI_SOURCE` (casts aside).
    fn is_rank(&self, e: &Expr) -> bool {
        match &strip_casts(e).kind {
            ExprKind::Var(v) => self.rank_vars.contains(v),
            ExprKind::Field(s, 0) => {
                matches!(&s.kind, ExprKind::Var(v) if self.status_vars.contains(v))
            }
            _ => false,
        }
    }

    fn check_every_use(&mut self) -> Result<(), String> {
        for f in &self.model.functions {
            let Some(body) = &f.body else { continue };
            for n in body.graph.node_indices() {
                if !body.graph[n].invariants.is_empty() {
                    return Err(format!(
                        "the loop at line {} has an invariant pragma",
                        body.graph[n].span.start_line
                    ));
                }
            }
        }
        for t in self.transitions() {
            self.walk(&t.guard)?;
            self.check_statement(t)?;
        }
        Ok(())
    }

    fn check_statement(&mut self, t: &tass_model::api::Transition) -> Result<(), String> {
        match &t.statement {
            Statement::Noop | Statement::Declare { .. } => Ok(()),
            Statement::Assign { lhs, rhs } => self.check_assign(lhs, rhs),
            Statement::Assert { condition, .. } | Statement::Assume { condition } => {
                self.walk(condition)
            }
            Statement::Call { lhs, callee, args } => {
                if let Some(lhs) = lhs {
                    if matches!(&lhs.kind, ExprKind::Var(v) if self.rank_vars.contains(v)) {
                        return Err(at(
                            self.model,
                            lhs,
                            "a rank variable receives a call's result",
                        ));
                    }
                    self.walk_lvalue(lhs)?;
                }
                match callee {
                    Callee::Library(lf) if lf.mpi().is_some() => self.check_mpi_call(*lf, args, t),
                    _ => args.iter().try_for_each(|a| self.walk(a)),
                }
            }
            Statement::Return { value } => value.iter().try_for_each(|v| self.walk(v)),
            Statement::Allocate {
                lhs,
                elem_type,
                count,
                ..
            } => {
                self.refuse_status_type(elem_type, t)?;
                self.walk_lvalue(lhs)?;
                self.walk(count)
            }
            Statement::Reallocate {
                lhs,
                pointer,
                elem_type,
                count,
            } => {
                self.refuse_status_type(elem_type, t)?;
                self.walk_lvalue(lhs)?;
                self.walk(pointer)?;
                self.walk(count)
            }
            Statement::Free { pointer } => self.walk(pointer),
            Statement::CollectiveAssert { .. } => Err(format!(
                "a collective or joint assertion at line {} names processes",
                t.span.start_line
            )),
            Statement::LoopInvariant(_) => Err(format!(
                "the loop at line {} has an invariant pragma",
                t.span.start_line
            )),
        }
    }

    fn refuse_status_type(&self, ty: &Type, t: &tass_model::api::Transition) -> Result<(), String> {
        match self.status {
            Some(st) if contains_status(self.model, ty, st, 0) => Err(format!(
                "an MPI_Status is allocated on the heap at line {}",
                t.span.start_line
            )),
            _ => Ok(()),
        }
    }

    fn check_assign(&mut self, lhs: &Expr, rhs: &Expr) -> Result<(), String> {
        if let ExprKind::Var(u) = &lhs.kind {
            if self.rank_vars.contains(u) {
                if self.is_rank(rhs) {
                    return Ok(());
                }
                if let Some(c) = int_literal(rhs) {
                    self.named.insert(c);
                    return Ok(());
                }
                if matches!(rhs.kind, ExprKind::Zero) {
                    self.named.insert(0);
                    return Ok(());
                }
                return Err(at(
                    self.model,
                    rhs,
                    "a rank variable is assigned a value that is neither a rank nor a literal",
                ));
            }
            if self.status_vars.contains(u) {
                return Err(at(self.model, lhs, "a whole MPI_Status is assigned"));
            }
        }
        if let ExprKind::Field(s, 0) = &lhs.kind {
            if matches!(&s.kind, ExprKind::Var(v) if self.status_vars.contains(v)) {
                return Err(at(self.model, lhs, "MPI_SOURCE of a status is assigned"));
            }
        }
        self.walk_lvalue(lhs)?;
        self.walk(rhs)
    }

    /// An lvalue: its variable is written, not read; index and pointer
    /// expressions in it are read.
    fn walk_lvalue(&mut self, e: &Expr) -> Result<(), String> {
        match &e.kind {
            ExprKind::Var(v) => {
                if self.status_vars.contains(v) {
                    return Err(at(self.model, e, "a whole MPI_Status is written"));
                }
                Ok(())
            }
            ExprKind::Field(s, _) => self.walk_lvalue(s),
            ExprKind::Index(a, i) => {
                self.walk_lvalue(a)?;
                self.walk(i)
            }
            _ => self.walk(e),
        }
    }

    /// A read of `e`: rank values may occur only in the allowed contexts.
    fn walk(&mut self, e: &Expr) -> Result<(), String> {
        if self.is_rank(e) {
            return Err(at(
                self.model,
                e,
                "a rank value is used otherwise than compared with ==/!= to a literal or passed as a peer",
            ));
        }
        match &e.kind {
            ExprKind::Binary(BinaryOp::Compare(Comparison::Eq | Comparison::Ne), a, b) => {
                match (self.is_rank(a), self.is_rank(b)) {
                    (true, true) => Ok(()),
                    (true, false) | (false, true) => {
                        let other = if self.is_rank(a) { b } else { a };
                        match int_literal(other) {
                            Some(c) => {
                                self.named.insert(c);
                                Ok(())
                            }
                            None => Err(at(
                                self.model,
                                other,
                                "a rank is compared with something other than a literal or a rank",
                            )),
                        }
                    }
                    (false, false) => {
                        self.walk(a)?;
                        self.walk(b)
                    }
                }
            }
            ExprKind::Var(v) if self.status_vars.contains(v) => {
                Err(at(self.model, e, "a whole MPI_Status is read"))
            }
            ExprKind::Field(s, k) if *k != 0 && self.is_status_var(s) => Ok(()),
            ExprKind::AddressOf(inner) if matches!(&inner.kind, ExprKind::Var(v) if self.rank_vars.contains(v) || self.status_vars.contains(v)) => {
                Err(at(
                    self.model,
                    e,
                    "the address of a rank variable or MPI_Status is taken",
                ))
            }
            ExprKind::Pid => Err(at(self.model, e, "PID is used")),
            ExprKind::LibraryConstant(LibraryConstant::MpiCommSelf) => Err(at(
                self.model,
                e,
                "MPI_COMM_SELF (a communicator per rank) is used",
            )),
            ExprKind::RemoteVar { .. } => Err(at(self.model, e, "PROC[e] names a process")),
            ExprKind::SpecVar(_) => Err(at(self.model, e, "spec.x is used")),
            _ => children(e).into_iter().try_for_each(|c| self.walk(c)),
        }
    }

    fn is_status_var(&self, e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Var(v) if self.status_vars.contains(v))
    }

    fn check_mpi_call(
        &mut self,
        lf: LibraryFunction,
        args: &[Expr],
        t: &tass_model::api::Transition,
    ) -> Result<(), String> {
        use LibraryFunction as L;
        let allowed = matches!(
            lf,
            L::MpiInit
                | L::MpiFinalize
                | L::MpiAbort
                | L::MpiCommRank
                | L::MpiCommSize
                | L::MpiGetCount
                | L::MpiWtime
                | L::MpiSend
                | L::MpiSsend
                | L::MpiRecv
                | L::MpiProbe
                | L::MpiBarrier
                | L::MpiBcast
                | L::MpiReduce
                | L::MpiAllreduce
        );
        let name = lf.c_name();
        if !allowed {
            return Err(format!(
                "{name} at line {} is not among the calls the reduction admits",
                t.span.start_line
            ));
        }
        let desc = lf.mpi().expect("an MPI function");
        for (param, arg) in desc.params.iter().zip(args) {
            self.check_mpi_arg(lf, param.role, arg, t)?;
        }
        Ok(())
    }

    fn check_mpi_arg(
        &mut self,
        lf: LibraryFunction,
        role: ArgRole,
        arg: &Expr,
        t: &tass_model::api::Transition,
    ) -> Result<(), String> {
        use LibraryConstant as C;
        let constant = match &strip_all_casts(arg).kind {
            ExprKind::LibraryConstant(c) => Some(*c),
            _ => None,
        };
        let line = t.span.start_line;
        match role {
            ArgRole::Comm => match constant {
                Some(C::MpiCommWorld) => Ok(()),
                _ => Err(format!(
                    "a communicator other than MPI_COMM_WORLD at line {line}"
                )),
            },
            ArgRole::Dest | ArgRole::Source => {
                if self.is_rank(arg) {
                    return Ok(());
                }
                match int_literal(arg) {
                    Some(c) => {
                        self.named.insert(c);
                        Ok(())
                    }
                    None => Err(format!(
                        "a peer at line {line} is neither a literal nor a rank value"
                    )),
                }
            }
            ArgRole::Root => match int_literal(arg) {
                Some(c) => {
                    self.named.insert(c);
                    Ok(())
                }
                None => Err(format!("the root at line {line} is not a literal")),
            },
            ArgRole::RankOut => Ok(()), // `find_rank_variables` checked it
            ArgRole::Status => match &strip_all_casts(arg).kind {
                ExprKind::AddressOf(inner) if self.is_status_var(inner) => Ok(()),
                ExprKind::LibraryConstant(C::MpiStatusIgnore) => Ok(()),
                _ => Err(format!(
                    "the status at line {line} is not the address of an MPI_Status variable"
                )),
            },
            ArgRole::Datatype
                if matches!(
                    lf,
                    LibraryFunction::MpiReduce | LibraryFunction::MpiAllreduce
                ) =>
            {
                match constant {
                    Some(C::MpiInt | C::MpiLong | C::MpiUnsigned | C::MpiLongLong) => Ok(()),
                    _ => Err(format!(
                        "the reduction at line {line} is not over an integer type (floating \
                         reductions fold in rank order)"
                    )),
                }
            }
            ArgRole::Op => match constant {
                Some(
                    C::MpiSum
                    | C::MpiProd
                    | C::MpiMin
                    | C::MpiMax
                    | C::MpiLand
                    | C::MpiLor
                    | C::MpiBand
                    | C::MpiBor,
                ) => Ok(()),
                _ => Err(format!(
                    "the reduction at line {line} has an operation other than a built-in \
                     commutative one"
                )),
            },
            _ => self.walk(arg),
        }
    }

    fn into_symmetry(self, workers: Vec<u32>, nprocs: u32) -> WorkerSymmetry {
        let slot_of = |v: VarId, index: usize| {
            if self.rank_vars.contains(&v) {
                Some(RankSlot::Value(index))
            } else if self.status_vars.contains(&v) {
                Some(RankSlot::StatusSource(index))
            } else {
                None
            }
        };
        let global_slots = self
            .model
            .globals
            .iter()
            .chain(&self.model.outputs)
            .enumerate()
            .filter_map(|(i, v)| slot_of(*v, i))
            .collect();
        let mut local_slots = HashMap::new();
        for f in &self.model.functions {
            let slots: Vec<RankSlot> = f
                .params
                .iter()
                .chain(&f.locals)
                .enumerate()
                .filter_map(|(i, v)| slot_of(*v, i))
                .collect();
            if !slots.is_empty() {
                local_slots.insert(f.id, slots);
            }
        }
        WorkerSymmetry {
            workers,
            nprocs,
            global_slots,
            local_slots,
        }
    }
}

/// The direct subexpressions of `e` (quantifier constraints and bodies included).
fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::AddressOf(a)
        | ExprKind::Deref(a)
        | ExprKind::Field(a, _)
        | ExprKind::Decay(a)
        | ExprKind::Cast(a) => vec![a],
        ExprKind::Binary(_, a, b)
        | ExprKind::LogicalAnd(a, b)
        | ExprKind::LogicalOr(a, b)
        | ExprKind::Index(a, b) => vec![a, b],
        ExprKind::Conditional(a, b, c) => vec![a, b, c],
        ExprKind::MathCall(_, args) | ExprKind::AbstractCall(_, args) => args.iter().collect(),
        ExprKind::Quantifier {
            constraint, body, ..
        } => constraint.iter().map(|c| &**c).chain([&**body]).collect(),
        ExprKind::RemoteVar { rank, .. } => vec![rank],
        _ => Vec::new(),
    }
}
