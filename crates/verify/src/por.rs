//! What the partial-order reduction (`real/por.rs`, `RealEngine::reduce_urgent`) knows about
//! a model before the search: how each transition touches memory, and from which
//! locations a process can still reach a transition that touches memory other
//! processes can see. Outputs are not such memory: every process has its own
//! copy of each (as of every global of a real MPI program), so a write to one
//! is a local step; the inputs all processes share are read-only.

use std::collections::{HashMap, HashSet};

use tass_model::api::{
    Callee, Expr as ModelExpr, ExprKind, FunctionId, LibraryFunction, LocationId, LocationKind,
    Model, Statement, TransitionId, Type as ModelType,
};

/// How a transition touches memory, for the reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Reads and writes only its process's own memory and the read-only inputs,
    /// and cannot block: commutes with every step of every other process.
    Own,
    /// Like [`Access::Own`] except that it may touch memory other processes can
    /// see (another process's variables `PROC[e].x`, the specification's,
    /// something through a pointer when some pointer can reach those): it
    /// commutes with the steps of processes that can no longer reach a
    /// transition touching the same [`Regions`] (see [`PorTables::may_touch`]).
    Shared,
    /// Anything else: `assume`, calls of library and system functions, MPI
    /// calls (the engine says how those commute), allocation.
    Other,
}

/// Which memory other processes see a transition may touch: none, or
/// anything (through a pointer, another process's variables, the
/// specification's, a library call). Two steps can depend on each other
/// through shared memory only if their regions intersect. (Before outputs
/// were per process, regions also named shared outputs one by one.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Regions {
    any: bool,
}

impl Regions {
    fn anything() -> Regions {
        Regions { any: true }
    }

    pub fn is_empty(&self) -> bool {
        !self.any
    }

    /// Adds `other`'s regions; `true` if that changed `self`.
    fn absorb(&mut self, other: &Regions) -> bool {
        let before = self.any;
        self.any |= other.any;
        before != self.any
    }

    pub fn intersects(&self, other: &Regions) -> bool {
        self.any && other.any
    }
}

/// Adds the shared memory `e` may touch to `out`: anything for a dereference
/// (unless `private`: no pointer of the model can reach shared memory, see
/// [`pointers_are_private`]), another process's variables (`PROC[e].x`) or the
/// specification's (`spec.x`). Outputs and globals are the process's own.
fn regions_of(e: &ModelExpr, private: bool, out: &mut Regions) {
    e.visit(&mut |x| match &x.kind {
        ExprKind::Deref(_) if !private => out.any = true,
        ExprKind::RemoteVar { .. } | ExprKind::SpecVar(_) => out.any = true,
        _ => {}
    });
}

/// The tables the reduction consults at every state.
#[derive(Debug, Default)]
pub(crate) struct PorTables {
    access: HashMap<(FunctionId, TransitionId), Access>,
    /// Transitions (MPI calls included) that touch memory other processes
    /// see, with the regions they may touch.
    shared: HashMap<(FunctionId, TransitionId), Regions>,
    /// For each location, the regions of the transitions of `shared` a process
    /// there may still execute, whatever its call stack (absent: none).
    reach_shared: HashMap<(FunctionId, LocationId), Regions>,
    /// Locations from which a process may still call `MPI_Test` or
    /// `MPI_Testall`, whatever its call stack: the calls that can see a
    /// nonblocking collective not complete yet.
    reach_test: HashSet<(FunctionId, LocationId)>,
    by_name: HashMap<String, FunctionId>,
}

/// True if no pointer of `model` can point into memory other processes see
/// and may write. Every object a process can reach is its own (its locals, its
/// copies of the globals and outputs, its heap blocks; MPI moves data, never
/// pointers) except the shared inputs, which no step writes (a write into one
/// through a pointer is an error of that step, whatever the others do). So a
/// pointer reaches such memory only if the program takes the address of
/// another process's or the specification's variable, which only collective
/// and joint pragmas (not executed) name: they count, to stay on the safe side.
fn pointers_are_private(model: &Model) -> bool {
    // Whether `&lv` takes the address of another process's or the
    // specification's variable (at the base of its indices and fields). The
    // variables in index expressions (`&u[N + 1]`, `N` an input) are only read.
    fn names_others(lv: &ModelExpr) -> bool {
        match &lv.kind {
            ExprKind::Index(b, _) | ExprKind::Field(b, _) | ExprKind::Cast(b) => names_others(b),
            ExprKind::RemoteVar { .. } | ExprKind::SpecVar(_) => true,
            _ => false,
        }
    }
    let mut addressed = false;
    let mut scan = |e: &ModelExpr| {
        e.visit(&mut |x| {
            if let ExprKind::AddressOf(lv) | ExprKind::Decay(lv) = &x.kind {
                addressed |= names_others(lv);
            }
        })
    };
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        for t in body.graph.edge_weights() {
            scan(&t.guard);
            match &t.statement {
                Statement::Noop | Statement::Declare { .. } => {}
                Statement::Assign { lhs, rhs } => {
                    scan(lhs);
                    scan(rhs);
                }
                Statement::Assert { condition, .. } | Statement::Assume { condition } => {
                    scan(condition)
                }
                // An MPI call given `&x[...]` (or an array `x`) uses the
                // address only to move data into or out of `x`: no pointer of
                // the program comes to hold it ([`call_regions`] records `x`).
                Statement::Call {
                    lhs,
                    callee: Callee::Library(lf),
                    args,
                } if lf.is_mpi() => {
                    lhs.iter().for_each(&mut scan);
                    args.iter()
                        .filter(|a| !names_its_target(a))
                        .for_each(&mut scan);
                }
                Statement::Call { lhs, args, .. } => {
                    lhs.iter().for_each(&mut scan);
                    args.iter().for_each(&mut scan);
                }
                Statement::Return { value } => value.iter().for_each(&mut scan),
                Statement::Allocate { lhs, count, .. } => {
                    scan(lhs);
                    scan(count);
                }
                Statement::Reallocate {
                    lhs,
                    pointer,
                    count,
                    ..
                } => {
                    scan(lhs);
                    scan(pointer);
                    scan(count);
                }
                Statement::Free { pointer } => scan(pointer),
                // Evaluated on snapshots (or, for an invariant, at the loop
                // head) only: no pointer of the program comes to hold an
                // address it names.
                Statement::CollectiveAssert { .. } | Statement::LoopInvariant(_) => {}
            }
        }
    }
    !addressed
}

/// True if the pointer argument `e` of a library call is `&x...` or the decay of
/// an array `x` (no dereference, other process's or specification's variable on
/// the way): the call then touches, through it, only the variable `x` it names,
/// which is the process's own (or another process's or the specification's,
/// which [`regions_of`] records). `MPI_Recv(&g[i][0], ...)` touches only `g`.
fn names_its_target(e: &ModelExpr) -> bool {
    match &e.kind {
        ExprKind::AddressOf(lv) | ExprKind::Decay(lv) => {
            let mut named = true;
            lv.visit(&mut |x| {
                if matches!(
                    x.kind,
                    ExprKind::Deref(_) | ExprKind::RemoteVar { .. } | ExprKind::SpecVar(_)
                ) {
                    named = false;
                }
            });
            named
        }
        ExprKind::Cast(inner) => names_its_target(inner),
        ExprKind::LibraryConstant(_) | ExprKind::NullPointer => true,
        _ => false,
    }
}

/// Adds the shared memory a library call with these arguments may touch to
/// `out`: anything for a pointer not known to point into a variable it names.
fn call_regions(args: &[ModelExpr], private: bool, out: &mut Regions) {
    for a in args {
        regions_of(a, private, out);
        if !private && matches!(a.ty, ModelType::Pointer(_)) && !names_its_target(a) {
            out.any = true;
        }
    }
}

/// Classifies one transition: its access kind and the shared memory it may
/// touch (empty: none).
fn classify(statement: &Statement, guard: &ModelExpr, private: bool) -> (Access, Regions) {
    let regions = |exprs: &[&ModelExpr]| {
        let mut out = Regions::default();
        for e in exprs {
            regions_of(e, private, &mut out);
        }
        out
    };
    let mut exprs: Vec<&ModelExpr> = vec![guard];
    let plain = match statement {
        Statement::Noop | Statement::Declare { .. } => true,
        Statement::Assign { lhs, rhs } => {
            exprs.extend([lhs, rhs]);
            true
        }
        Statement::Assert { condition, .. } => {
            exprs.push(condition);
            true
        }
        Statement::Assume { condition } => {
            exprs.push(condition);
            false
        }
        Statement::Return { value } => {
            exprs.extend(value.iter());
            true
        }
        Statement::Call {
            lhs,
            callee: Callee::User(_),
            args,
        } => {
            exprs.extend(lhs.iter());
            exprs.extend(args.iter());
            true
        }
        Statement::Call {
            lhs,
            callee: Callee::Library(lf),
            args,
        } if lf.is_mpi() => {
            let mut shared = regions(&lhs.iter().chain([guard]).collect::<Vec<_>>());
            call_regions(args, private, &mut shared);
            return (Access::Other, shared);
        }
        // A library call such as `memcpy` or `rand` touches, when no pointer can
        // reach shared memory, what its arguments name: a plain statement.
        Statement::Call {
            lhs,
            callee: Callee::Library(lf),
            args,
        } if private && lf.is_process_local() => {
            exprs.extend(lhs.iter());
            exprs.extend(args.iter());
            true
        }
        // Allocation touches only the process's own heap when no pointer can
        // reach shared memory (the pointer it stores is the process's own;
        // heap objects are numbered per process): a plain statement then.
        Statement::Allocate { lhs, count, .. } if private => {
            exprs.extend([lhs, count]);
            true
        }
        Statement::Free { pointer } if private => {
            exprs.push(pointer);
            true
        }
        // Appends a snapshot to the process's own queue and, when every queue
        // has one, checks the assertion on the queued snapshots, which no step
        // of another process changes: it commutes with every other step (see
        // "Collective assertions and the reduction" in docs/architecture.md).
        Statement::CollectiveAssert { .. } => return (Access::Own, Regions::default()),
        // The arrival at an invariant loop's head: with one process the
        // classic form (its own variables only); with several it records the
        // arrival and waits for the others. An arrival that does not complete
        // the loop record disables and enables no step of another process,
        // and two arrivals commute (the record is the set of arrived
        // processes); the arrival that completes it, and with it checks the
        // invariant and gives every process fresh values, happens when every
        // other process waits at the head, with no step of its own to
        // interleave (see "Loop invariants over several processes" in
        // docs/architecture.md).
        Statement::LoopInvariant(_) => return (Access::Own, Regions::default()),
        // Other library calls, system functions, allocation: assume the worst.
        _ => return (Access::Other, Regions::anything()),
    };
    let shared = regions(&exprs);
    match (plain, shared.is_empty()) {
        (true, true) => (Access::Own, shared),
        (true, false) => (Access::Shared, shared),
        (false, _) => (Access::Other, shared),
    }
}

impl PorTables {
    pub fn new(model: &Model) -> PorTables {
        let mut tables = PorTables::default();
        let private = pointers_are_private(model);
        // Nodes of the interprocedural graph: (function, location). Edges go
        // backwards (to the locations that can reach a node).
        let mut preds: HashMap<(FunctionId, LocationId), Vec<(FunctionId, LocationId)>> =
            HashMap::new();
        let mut exits: HashMap<FunctionId, Vec<LocationId>> = HashMap::new();
        let mut call_sites: Vec<(FunctionId, FunctionId, LocationId, LocationId)> = Vec::new();
        let mut seeds = Vec::new();
        let mut test_seeds = Vec::new();
        // A nonblocking collective writes its receive buffer at the wait or
        // test that completes it: those calls touch what the posts name.
        let mut completed = Regions::default();
        for f in &model.functions {
            let Some(body) = &f.body else { continue };
            for t in body.graph.edge_weights() {
                if let Statement::Call {
                    callee: Callee::Library(lf),
                    ..
                } = &t.statement
                {
                    if lf.is_nonblocking_collective() {
                        completed.absorb(&classify(&t.statement, &t.guard, private).1);
                    }
                }
            }
        }
        for f in &model.functions {
            tables.by_name.insert(f.name.clone(), f.id);
            let Some(body) = &f.body else { continue };
            // A transition keeps its kind only if every sibling (leaving the
            // same location) is at least as harmless: otherwise another process
            // could enable a sibling while this one is explored alone.
            let mut worst: HashMap<LocationId, Access> = HashMap::new();
            let mut kinds = Vec::new();
            for edge in body.graph.edge_indices() {
                let Some((from, to)) = body.graph.edge_endpoints(edge) else {
                    continue;
                };
                let t = body.transition(edge);
                let (access, mut shared) = classify(&t.statement, &t.guard, private);
                if matches!(&t.statement, Statement::Call { callee: Callee::Library(lf), .. } if lf.completes_requests())
                {
                    shared.absorb(&completed);
                }
                kinds.push((edge, from, access));
                let w = worst.entry(from).or_insert(Access::Own);
                *w = match (*w, access) {
                    (Access::Other, _) | (_, Access::Other) => Access::Other,
                    (Access::Shared, _) | (_, Access::Shared) => Access::Shared,
                    _ => Access::Own,
                };
                if !shared.is_empty() {
                    seeds.push(((f.id, from), shared.clone()));
                    tables.shared.insert((f.id, edge), shared);
                }
                preds.entry((f.id, to)).or_default().push((f.id, from));
                if let Statement::Call {
                    callee: Callee::Library(LibraryFunction::MpiTest | LibraryFunction::MpiTestall),
                    ..
                } = &t.statement
                {
                    test_seeds.push((f.id, from));
                }
                if let Statement::Call {
                    callee: Callee::User(g),
                    ..
                } = &t.statement
                {
                    call_sites.push((f.id, *g, from, to));
                }
            }
            for (edge, from, access) in kinds {
                let w = worst.get(&from).copied().unwrap_or(Access::Other);
                let access = match (access, w) {
                    (_, Access::Other) => Access::Other,
                    (Access::Own, Access::Shared) => Access::Shared,
                    (a, _) => a,
                };
                tables.access.insert((f.id, edge), access);
            }
            let ends = body
                .graph
                .node_indices()
                .filter(|&l| body.location(l).kind == LocationKind::Exit)
                .collect();
            exits.insert(f.id, ends);
        }
        // Calls: the caller's location reaches the callee's entry; the callee's
        // exits reach every return point of every call site (the call stack is
        // not known here, so every caller counts).
        for (f, g, from, to) in call_sites {
            if let Some(entry) = model.function(g).body.as_ref().map(|b| b.entry) {
                preds.entry((g, entry)).or_default().push((f, from));
            }
            for &exit in exits.get(&g).into_iter().flatten() {
                preds.entry((f, to)).or_default().push((g, exit));
            }
        }
        // Each seed's regions flow backwards until nothing changes.
        let mut todo = seeds;
        while let Some((node, regions)) = todo.pop() {
            if !tables
                .reach_shared
                .entry(node)
                .or_default()
                .absorb(&regions)
            {
                continue;
            }
            for &pred in preds.get(&node).into_iter().flatten() {
                todo.push((pred, regions.clone()));
            }
        }
        let mut todo = test_seeds;
        while let Some(node) = todo.pop() {
            if tables.reach_test.insert(node) {
                todo.extend(preds.get(&node).into_iter().flatten().copied());
            }
        }
        tables
    }

    /// Whether a process whose top frame is `function` at `location` may still
    /// call `MPI_Test` or `MPI_Testall`.
    pub fn may_test(&self, function: &str, location: LocationId) -> bool {
        match self.by_name.get(function) {
            Some(&f) => self.reach_test.contains(&(f, location)),
            None => true,
        }
    }

    /// How `transition` of `function` touches memory.
    pub fn access(&self, function: FunctionId, transition: TransitionId) -> Access {
        self.access
            .get(&(function, transition))
            .copied()
            .unwrap_or(Access::Other)
    }

    /// The shared memory the transition (an MPI call, say) may touch (empty:
    /// none).
    pub fn regions(&self, function: FunctionId, transition: TransitionId) -> &Regions {
        const NONE: &Regions = &Regions { any: false };
        self.shared.get(&(function, transition)).unwrap_or(NONE)
    }

    /// Whether a process whose top frame is `function` at `location` may still
    /// execute a transition that touches shared memory in `regions`.
    pub fn may_touch(&self, function: &str, location: LocationId, regions: &Regions) -> bool {
        match self.by_name.get(function) {
            Some(&f) => self
                .reach_shared
                .get(&(f, location))
                .is_some_and(|reach| reach.intersects(regions)),
            None => !regions.is_empty(),
        }
    }

    /// The id of the function named `name`.
    pub fn function_id(&self, name: &str) -> Option<FunctionId> {
        self.by_name.get(name).copied()
    }
}
