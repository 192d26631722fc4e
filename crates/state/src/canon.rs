//! State canonicalization: every value simplified under the path condition
//! (`simplify_state`); heap objects renumbered in order of first reach from the
//! roots, unreferenced freed objects dropped, pointers rewritten
//! (`canonical_heaps`); and, for states without heap objects, the same with the
//! canonical forms of unchanged processes taken from a memo
//! (`canonical_heapless`, [`ProcMemo`]).

use std::sync::{Arc, Weak};

use hashbrown::HashMap;
use tass_dynamic::api::{HeapObject, Pointer, Root, Value};
use tass_symbolic::api::{Expr, ExprFactory};

use crate::state::{proc_hash, PartStore, ProcState, State};

fn visit_pointers(v: &Value, out: &mut Vec<(u32, u32)>) {
    v.for_each_pointer(&mut |p| {
        if let Some(Root::Heap { proc, object }) = p.root() {
            out.push((proc, object));
        }
    });
}

/// The order in which heap objects are first reached: roots are the shared
/// variables, then per process its globals and its frames bottom-up; an object's
/// contents are scanned as soon as it is reached.
fn reach_order(state: &State) -> Vec<(u32, u32)> {
    let s = &state.inner;
    let mut order: Vec<(u32, u32)> = Vec::new();
    let mut seen: hashbrown::HashSet<(u32, u32)> = hashbrown::HashSet::new();
    let scan =
        |v: &Value, order: &mut Vec<(u32, u32)>, seen: &mut hashbrown::HashSet<(u32, u32)>| {
            let mut work = Vec::new();
            visit_pointers(v, &mut work);
            work.reverse();
            while let Some(key) = work.pop() {
                if !seen.insert(key) {
                    continue;
                }
                order.push(key);
                if let Some(HeapObject::Live { value, .. }) = s
                    .procs
                    .get(key.0 as usize)
                    .and_then(|p| p.heap.get(key.1 as usize))
                {
                    let mut inner = Vec::new();
                    visit_pointers(value, &mut inner);
                    inner.reverse();
                    work.extend(inner);
                }
            }
        };
    for v in s.shared.iter() {
        scan(v, &mut order, &mut seen);
    }
    for p in &s.procs {
        for v in p.globals.iter() {
            scan(v, &mut order, &mut seen);
        }
        for fr in &p.stack {
            for v in &fr.locals {
                scan(v, &mut order, &mut seen);
            }
        }
    }
    for m in s.messages.iter() {
        scan(&m.data, &mut order, &mut seen);
    }
    for v in crate::mpi::window_values(&s.windows) {
        scan(v, &mut order, &mut seen);
    }
    for p in &s.procs {
        for r in &p.mpi.requests {
            for buffer in r.buffers() {
                scan(buffer, &mut order, &mut seen);
            }
        }
    }
    order
}

/// `state` with its heaps in canonical order.
pub(crate) fn canonical_heaps(_f: &ExprFactory, mut state: State) -> State {
    if state.inner.procs.iter().all(|p| p.heap.is_empty()) {
        return state;
    }
    let order = reach_order(&state);
    let nprocs = state.inner.procs.len();
    // New numbering per process.
    let mut mapping: HashMap<(u32, u32), u32> = HashMap::new();
    let mut new_heaps: Vec<Vec<HeapObject>> = vec![Vec::new(); nprocs];
    let mut placed: Vec<Vec<bool>> = state
        .inner
        .procs
        .iter()
        .map(|p| vec![false; p.heap.len()])
        .collect();
    for &(p, o) in &order {
        let (pu, ou) = (p as usize, o as usize);
        if pu >= nprocs || ou >= state.inner.procs[pu].heap.len() {
            continue; // a dangling pointer to an object that never existed
        }
        mapping.insert((p, o), new_heaps[pu].len() as u32);
        new_heaps[pu].push(state.inner.procs[pu].heap[ou].clone());
        placed[pu][ou] = true;
    }
    // Unreachable live objects (leaks) stay, after the reachable ones.
    for (pu, ps) in state.inner.procs.iter().enumerate() {
        for (ou, obj) in ps.heap.iter().enumerate() {
            if !placed[pu][ou] && obj.is_live() {
                mapping.insert((pu as u32, ou as u32), new_heaps[pu].len() as u32);
                new_heaps[pu].push(obj.clone());
            }
        }
    }
    let identity = state.inner.procs.iter().enumerate().all(|(pu, ps)| {
        ps.heap.len() == new_heaps[pu].len()
            && (0..ps.heap.len()).all(|o| mapping.get(&(pu as u32, o as u32)) == Some(&(o as u32)))
    });
    if identity {
        return state;
    }
    let mut remap = |ptr: &Pointer| -> Pointer {
        ptr.map_root(|r| match r {
            Root::Heap { proc, object } => match mapping.get(&(proc, object)) {
                Some(&n) => Root::Heap { proc, object: n },
                None => Root::Heap {
                    proc,
                    object: u32::MAX,
                },
            },
            other => other,
        })
    };
    let mut keep = |e: Expr| e;
    let s = state.inner_mut();
    let shared: Vec<Value> = s
        .shared
        .iter()
        .map(|v| v.map(&mut remap, &mut keep))
        .collect();
    s.shared = Arc::new(shared);
    for (pu, ps) in s.procs.iter_mut().enumerate() {
        let ps = Arc::make_mut(ps);
        let globals: Vec<Value> = ps
            .globals
            .iter()
            .map(|v| v.map(&mut remap, &mut keep))
            .collect();
        ps.globals = Arc::new(globals);
        for fr in ps.stack.iter_mut() {
            let fr = Arc::make_mut(fr);
            for v in fr.locals.iter_mut() {
                *v = v.map(&mut remap, &mut keep);
            }
        }
        for r in ps.mpi.requests.iter_mut() {
            for buffer in r.buffers_mut() {
                *buffer = buffer.map(&mut remap, &mut keep);
            }
        }
        // The scratch blocks of running user-operator calls (all live, so
        // all renumbered).
        for b in ps.mpi.scratch.iter_mut() {
            for o in b.objects.iter_mut() {
                *o = mapping.get(&(pu as u32, *o)).copied().unwrap_or(u32::MAX);
            }
        }
        // The command line's blocks (live unless the program freed one, which
        // is reported: a freed one may be dropped, hence the filter).
        if !ps.program_args.is_empty() {
            ps.program_args = ps
                .program_args
                .iter()
                .filter_map(|o| mapping.get(&(pu as u32, *o)).copied())
                .collect();
        }
        let heap: Vec<HeapObject> = std::mem::take(&mut new_heaps[pu])
            .iter()
            .map(|o| map_heap_object(o, &mut remap, &mut keep))
            .collect();
        ps.heap = Arc::new(heap);
    }
    let msgs: Vec<_> = s
        .messages
        .iter()
        .map(|m| {
            let mut m = m.clone();
            m.data = m.data.map(&mut remap, &mut keep);
            m
        })
        .collect();
    s.messages = Arc::new(msgs);
    if !s.windows.is_empty() {
        let windows = Arc::make_mut(&mut s.windows);
        for v in crate::mpi::window_values_mut(windows) {
            *v = v.map(&mut remap, &mut keep);
        }
    }
    state
}

/// `state` with its path condition replaced by the simplifier's equivalent
/// (reduced) form and every expression in it simplified under the path condition
/// (paper Sec. 4.5). The result is equivalent to `state`.
pub(crate) fn simplify_state(
    f: &ExprFactory,
    cache: &tass_simplify::api::SimplifierCache,
    pcs: &mut HashMap<Expr, Option<Expr>>,
    mut state: State,
) -> State {
    let (new_pc, simp) = match simplified_pc(f, cache, pcs, state.inner.pc) {
        PcForm::Constant => return state,
        PcForm::Contradictory => {
            state.inner_mut().pc = f.ff();
            return state;
        }
        PcForm::Simplified { new_pc, simplifier } => (new_pc, simplifier),
    };
    let s = state.inner_mut();
    s.pc = new_pc;
    simplify_values(&mut s.shared, &simp);
    for ps in s.procs.iter_mut() {
        simplify_proc(ps, &simp);
    }
    state
}

/// What the simplifier makes of a path condition.
enum PcForm {
    /// `true` or `false`: nothing to simplify under.
    Constant,
    /// Found unsatisfiable by the simplifier: the state becomes `false`.
    Contradictory,
    /// An equivalent, reduced path condition and the simplifier for it.
    Simplified {
        new_pc: Expr,
        simplifier: Arc<tass_simplify::api::Simplifier>,
    },
}

fn simplified_pc(
    f: &ExprFactory,
    cache: &tass_simplify::api::SimplifierCache,
    pcs: &mut HashMap<Expr, Option<Expr>>,
    pc: Expr,
) -> PcForm {
    if f.as_bool(pc).is_some() {
        return PcForm::Constant;
    }
    let simplifier = cache.simplifier(pc);
    let new_pc = *pcs.entry(pc).or_insert_with(|| {
        if simplifier.is_contradictory() {
            None
        } else {
            Some(simplifier.equivalent_assumption())
        }
    });
    match new_pc {
        None => PcForm::Contradictory,
        Some(new_pc) => PcForm::Simplified { new_pc, simplifier },
    }
}

/// `v` simplified, or `None` if simplification changes nothing.
fn simplified_value(v: &Value, simp: &tass_simplify::api::Simplifier) -> Option<Value> {
    let n = v.map(&mut |p: &Pointer| p.clone(), &mut |e: Expr| {
        simp.simplify(e)
    });
    if n == *v {
        None
    } else {
        Some(n)
    }
}

/// Simplifies a vector of values in place; the vector is copied only if some value
/// changes (keeps sharing).
fn simplify_values(values: &mut Arc<Vec<Value>>, simp: &tass_simplify::api::Simplifier) {
    let changed: Vec<Option<Value>> = values.iter().map(|v| simplified_value(v, simp)).collect();
    if changed.iter().any(Option::is_some) {
        for (slot, n) in Arc::make_mut(values).iter_mut().zip(changed) {
            if let Some(n) = n {
                *slot = n;
            }
        }
    }
}

/// The simplified form of each of `values` that simplification changes (`None`
/// for the others); `None` when it changes none, so nothing is copied.
fn simplified_values(
    values: &[Value],
    simp: &tass_simplify::api::Simplifier,
) -> Option<Vec<Option<Value>>> {
    let changed: Vec<Option<Value>> = values.iter().map(|v| simplified_value(v, simp)).collect();
    changed.iter().any(Option::is_some).then_some(changed)
}

/// Writes the changed values (from [`simplified_values`]) into `slots`.
fn write_changed(slots: &mut [Value], changed: Vec<Option<Value>>) {
    for (slot, n) in slots.iter_mut().zip(changed) {
        if let Some(n) = n {
            *slot = n;
        }
    }
}

/// Heap object `o` with `pointers` and `exprs` applied to its value, and
/// `exprs` to its extent.
fn map_heap_object(
    o: &HeapObject,
    pointers: &mut dyn FnMut(&Pointer) -> Pointer,
    exprs: &mut dyn FnMut(Expr) -> Expr,
) -> HeapObject {
    match o {
        HeapObject::Live {
            value,
            extent,
            elem,
        } => HeapObject::Live {
            value: value.map(pointers, exprs),
            extent: exprs(*extent),
            elem: *elem,
        },
        HeapObject::Freed => HeapObject::Freed,
    }
}

/// Simplifies every expression of one process in place; parts are copied only if
/// something in them changes.
fn simplify_proc(ps: &mut Arc<ProcState>, simp: &tass_simplify::api::Simplifier) {
    if let Some(globals) = simplified_values(&ps.globals, simp) {
        let ps = Arc::make_mut(ps);
        write_changed(Arc::make_mut(&mut ps.globals).as_mut_slice(), globals);
    }
    for k in 0..ps.stack.len() {
        if let Some(locals) = simplified_values(&ps.stack[k].locals, simp) {
            let ps = Arc::make_mut(ps);
            write_changed(&mut Arc::make_mut(&mut ps.stack[k]).locals, locals);
        }
    }
    if !ps.heap.is_empty() {
        let mut same = |p: &Pointer| p.clone();
        let mut g = |e: Expr| simp.simplify(e);
        let heap: Vec<HeapObject> = ps
            .heap
            .iter()
            .map(|o| map_heap_object(o, &mut same, &mut g))
            .collect();
        if heap != **ps.heap {
            Arc::make_mut(ps).heap = Arc::new(heap);
        }
    }
    if let crate::state::Status::Terminated {
        exit_code: Some(c),
        at,
    } = &ps.status
    {
        let c2 = simp.simplify(*c);
        if c2 != *c {
            let at = *at;
            Arc::make_mut(ps).status = crate::state::Status::Terminated {
                at,
                exit_code: Some(c2),
            };
        }
    }
}

/// Canonical process states already computed, by the address of the process
/// state they were computed from and the path condition they were simplified
/// under, with the canonical state's hash.
///
/// Each entry holds a `Weak` to its source. That keeps the source's address from
/// being reused, and since `Arc::make_mut` moves a value away from outstanding
/// `Weak`s instead of changing it in place, the value at a live address with an
/// entry is the value the entry was computed from. A strong reference would make
/// every later change of the working state copy the process first.
#[derive(Default)]
pub(crate) struct ProcMemo {
    entries: HashMap<(usize, Expr), MemoEntry>,
}

struct MemoEntry {
    source: Weak<ProcState>,
    canonical: Arc<ProcState>,
    hash: u64,
}

/// Entries kept at most; the memo is emptied when it reaches this (each entry pins
/// the allocation, not the contents, of a process state that may be gone).
const PROC_MEMO_LIMIT: usize = 1 << 17;

impl ProcMemo {
    fn get(&self, ps: &Arc<ProcState>, pc: Expr) -> Option<(&Arc<ProcState>, u64)> {
        let entry = self.entries.get(&(Arc::as_ptr(ps) as usize, pc))?;
        // The address is ours while the entry lives; checking the Weak anyway
        // makes the identity explicit.
        (entry.source.as_ptr() == Arc::as_ptr(ps)).then_some((&entry.canonical, entry.hash))
    }

    /// Records `canonical` (with its hash) as the form of `source` and of itself.
    fn insert(&mut self, source: Weak<ProcState>, pc: Expr, canonical: &Arc<ProcState>, hash: u64) {
        if self.entries.len() >= PROC_MEMO_LIMIT {
            self.entries.clear();
        }
        for from in [source, Arc::downgrade(canonical)] {
            self.entries.insert(
                (from.as_ptr() as usize, pc),
                MemoEntry {
                    source: from,
                    canonical: Arc::clone(canonical),
                    hash,
                },
            );
        }
    }
}

/// [`simplify_state`], then [`canonical_heaps`], then sharing parts with `parts`
/// and sealing, for a state whose heaps are all empty: then a process's canonical
/// form depends only on the process and the path condition, so the forms of
/// processes a step left alone come from `memo` instead of being simplified,
/// shared and hashed again.
pub(crate) fn canonical_heapless(
    f: &ExprFactory,
    cache: &tass_simplify::api::SimplifierCache,
    pcs: &mut HashMap<Expr, Option<Expr>>,
    parts: &mut PartStore,
    memo: &mut ProcMemo,
    mut state: State,
) -> State {
    debug_assert!(state.inner.procs.iter().all(|p| p.heap.is_empty()));
    let pc = state.inner.pc;
    let form = simplified_pc(f, cache, pcs, pc);
    if let PcForm::Contradictory = form {
        // Rare: the plain path keeps it simple.
        let state = simplify_state(f, cache, pcs, state).seal();
        return parts.share(state);
    }
    let s = state.inner_mut();
    let mut proc_hashes = Vec::with_capacity(s.procs.len());
    for ps in s.procs.iter_mut() {
        if let Some((canonical, hash)) = memo.get(ps, pc) {
            // Debug builds (the test suite) check every hit against a fresh
            // simplification.
            #[cfg(debug_assertions)]
            {
                let mut fresh = Arc::clone(ps);
                if let PcForm::Simplified { simplifier, .. } = &form {
                    simplify_proc(&mut fresh, simplifier);
                }
                assert!(*fresh == **canonical, "stale canonical process state");
            }
            *ps = Arc::clone(canonical);
            proc_hashes.push(hash);
            continue;
        }
        let source = Arc::downgrade(ps);
        if let PcForm::Simplified { simplifier, .. } = &form {
            simplify_proc(ps, simplifier);
        }
        parts.share_proc(ps);
        let hash = proc_hash(ps);
        memo.insert(source, pc, ps, hash);
        proc_hashes.push(hash);
    }
    if let PcForm::Simplified { new_pc, simplifier } = &form {
        s.pc = *new_pc;
        simplify_values(&mut s.shared, simplifier);
    }
    parts.share_globals(s);
    let hash = s.compute_hash_with(&proc_hashes);
    state.with_hash(hash)
}
