//! Heap canonicalization: heap objects renumbered in order of first reach from
//! the roots, unreferenced freed objects dropped, pointers rewritten.

use std::sync::Arc;

use hashbrown::HashMap;
use tass_dynamic::api::{HeapObject, Pointer, Root, Value};
use tass_symbolic::api::{Expr, ExprFactory};

use crate::state::State;

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
        let heap: Vec<HeapObject> = std::mem::take(&mut new_heaps[pu])
            .into_iter()
            .map(|o| match o {
                HeapObject::Live { value, extent } => HeapObject::Live {
                    value: value.map(&mut remap, &mut keep),
                    extent,
                },
                HeapObject::Freed => HeapObject::Freed,
            })
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
    let pc = state.inner.pc;
    if f.as_bool(pc).is_some() {
        return state;
    }
    let simp = cache.simplifier(pc);
    let new_pc = *pcs.entry(pc).or_insert_with(|| {
        if simp.is_contradictory() {
            None
        } else {
            Some(simp.equivalent_assumption())
        }
    });
    let Some(new_pc) = new_pc else {
        state.inner_mut().pc = f.ff();
        return state;
    };
    let mut same = |p: &Pointer| p.clone();
    let mut g = |e: Expr| simp.simplify(e);
    let changes_value =
        |v: &Value, g: &mut dyn FnMut(Expr) -> Expr, same: &mut dyn FnMut(&Pointer) -> Pointer| {
            let n = v.map(same, g);
            if n == *v {
                None
            } else {
                Some(n)
            }
        };
    // Compute the new components first; write only what changed (keeps sharing).
    let shared: Vec<Option<Value>> = state
        .inner
        .shared
        .iter()
        .map(|v| changes_value(v, &mut g, &mut same))
        .collect();
    let s = state.inner_mut();
    s.pc = new_pc;
    if shared.iter().any(Option::is_some) {
        let sh = Arc::make_mut(&mut s.shared);
        for (slot, n) in sh.iter_mut().zip(shared) {
            if let Some(n) = n {
                *slot = n;
            }
        }
    }
    for ps in s.procs.iter_mut() {
        let globals: Vec<Option<Value>> = ps
            .globals
            .iter()
            .map(|v| changes_value(v, &mut g, &mut same))
            .collect();
        if globals.iter().any(Option::is_some) {
            let ps = Arc::make_mut(ps);
            let gl = Arc::make_mut(&mut ps.globals);
            for (slot, n) in gl.iter_mut().zip(globals) {
                if let Some(n) = n {
                    *slot = n;
                }
            }
        }
        for k in 0..ps.stack.len() {
            let locals: Vec<Option<Value>> = ps.stack[k]
                .locals
                .iter()
                .map(|v| changes_value(v, &mut g, &mut same))
                .collect();
            if locals.iter().any(Option::is_some) {
                let ps = Arc::make_mut(ps);
                let fr = Arc::make_mut(&mut ps.stack[k]);
                for (slot, n) in fr.locals.iter_mut().zip(locals) {
                    if let Some(n) = n {
                        *slot = n;
                    }
                }
            }
        }
        if !ps.heap.is_empty() {
            let heap: Vec<HeapObject> = ps
                .heap
                .iter()
                .map(|o| match o {
                    HeapObject::Live { value, extent } => HeapObject::Live {
                        value: value.map(&mut same, &mut g),
                        extent: g(*extent),
                    },
                    HeapObject::Freed => HeapObject::Freed,
                })
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
            let c2 = g(*c);
            if c2 != *c {
                let at = *at;
                Arc::make_mut(ps).status = crate::state::Status::Terminated {
                    at,
                    exit_code: Some(c2),
                };
            }
        }
    }
    state
}
