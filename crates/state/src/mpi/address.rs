//! Addresses: `MPI_Get_address`, `MPI_Aint_add`, `MPI_Aint_diff`.
//!
//! Where an object lies in memory is up to the compiler and the loader, so
//! tass never picks a number for it: the address of an object is an unknown
//! integer (a fresh symbol, between 1 and [`ADDRESS_LIMIT`] minus the
//! object's size), and the address of a place inside the object is that
//! unknown plus the place's byte offset in the C layout. Each run of the
//! program is one value of the unknowns, so the search covers every
//! placement. Arithmetic is plain integer arithmetic on these values; where
//! it is meaningful, the unknown cancels: the difference of two addresses in
//! one object is the concrete byte distance, which is what
//! `MPI_Type_create_struct` needs as displacements. A difference of
//! addresses of two objects keeps the unknowns, and a call that needs a
//! concrete number (a displacement) refuses it by name.
//!
//! The unknown is also a multiple of the object's alignment as the C ABI
//! gives it (gcc on x86-64: a `double` at a multiple of 8, an array at its
//! element's): `p % 8 == 0` for the address `p` of a `double` holds on every
//! run, so it must not be reported as failing. The compiler may align an
//! object more (a large global array at 32): that is one of the values the
//! unknown ranges over, never excluded.
//!
//! The unknowns are named by the process and a count of the unknowns it
//! made (`MPI_address_p0_3`): every order of the processes' steps that
//! reaches a state gives it the same names, so states still match.
//!
//! The unknown of an object is kept in the process's MPI state
//! ([`MpiProc::addresses`](super::process::MpiProc)), so that every
//! `MPI_Get_address` of the object in its lifetime sees the same base. A
//! local of a function loses its entry when its frame returns (the next
//! call's local gets a new unknown: it may or may not lie at the same
//! place). Heap blocks are refused: their numbers change when the state is
//! put in canonical form.

use tass_dynamic::api::{Pointer, Root, Value};
use tass_model::api::mpi::ArgRole;
use tass_model::api::{layout_of, StructDef, Type as CType};
use tass_semantics::api::{EngineError, Environment};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::context::{write_through, MpiCall};
use crate::env::set_mpi;

/// The end of the user part of the address space of x86-64 Linux (47 bits):
/// every object lies below it.
pub(super) const ADDRESS_LIMIT: i64 = 1 << 47;

/// An object whose address the process asked for: its unknown base address
/// and its size in bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct KnownAddress {
    /// The object's root, with the process left out ([`object_key`]).
    pub object: Root,
    /// The unknown address of its first byte.
    pub base: Expr,
    /// Its size in bytes.
    pub size: Expr,
}

/// The prefix of the names of the unknown addresses.
pub(super) const ADDRESS_SYMBOL: &str = "MPI_address";

/// True when `e` depends on where an object lies (one of the unknown
/// addresses of [`MpiCall::get_address`] is left in it).
pub(super) fn depends_on_placement(f: &ExprFactory, e: Expr) -> bool {
    f.free_symbols(e).into_iter().any(|s| {
        f.symbol_name(s)
            .is_some_and(|name| name.starts_with(ADDRESS_SYMBOL))
    })
}

/// The key of an object in [`MpiProc::addresses`](super::process::MpiProc):
/// its root with the process left out (the entry is in that process's state).
fn object_key(root: Root) -> Option<Root> {
    Some(match root {
        Root::Shared(var) => Root::Shared(var),
        Root::Global { var, .. } => Root::Global { proc: 0, var },
        Root::Local { frame, var, .. } => Root::Local {
            proc: 0,
            frame,
            var,
        },
        Root::Heap { .. } => return None,
    })
}

/// The alignment the C ABI gives an object of type `ty` (gcc, x86-64): an
/// array's is its element's (whatever its extent); 1 when not known.
fn alignment(structs: &[StructDef], ty: &CType) -> i64 {
    match ty {
        CType::Array(elem, _) => alignment(structs, elem),
        _ => layout_of(structs, ty).map_or(1, |l| l.align as i64),
    }
}

/// Drops the addresses of the locals of frames at `depth` and above (their
/// frames have returned).
pub(crate) fn forget_frames(addresses: &mut Vec<KnownAddress>, depth: usize) {
    addresses.retain(
        |known| !matches!(known.object, Root::Local { frame, .. } if frame as usize >= depth),
    );
}

impl MpiCall<'_, '_, '_> {
    /// `MPI_Get_address(location, &address)`: the unknown address of
    /// `location`'s object plus `location`'s byte offset in it.
    pub(super) fn get_address(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let span = call.span;
        let pointer = match ev.eval(&*env, call.arg(ArgRole::Location))? {
            Value::Pointer(p @ (Pointer::To { .. } | Pointer::Bytes { .. })) => p,
            other => {
                let what = match other {
                    Value::Pointer(Pointer::Null) => "the null pointer".to_string(),
                    _ => "a value that points into no object".to_string(),
                };
                return Err(EngineError::unsupported(
                    format!("MPI_Get_address of {what} (tass gives addresses of objects only)"),
                    span,
                ));
            }
        };
        let Some((root, offset)) = ev.byte_position(&*env, &pointer, span)? else {
            return Ok(());
        };
        let Some(key) = object_key(root) else {
            return Err(EngineError::unsupported(
                "MPI_Get_address of a heap block (tass gives addresses of variables only: \
                 declare the object, or compute displacements with offsetof)",
                span,
            ));
        };
        let known = &env.state.inner.procs[env.proc].mpi.addresses;
        let base = match known.iter().find(|k| k.object == key) {
            Some(k) => k.base,
            None => {
                let Some(size) = ev.object_size(&*env, root) else {
                    return Err(EngineError::unsupported(
                        "MPI_Get_address of an object of unknown size",
                        span,
                    ));
                };
                // Named by the process and how many unknowns it made before,
                // not by a global counter: the same state reached in another
                // order of the processes' steps has the same names, so it matches.
                let made = env.state.inner.procs[env.proc].mpi.addresses_made;
                let name = format!("{ADDRESS_SYMBOL}_p{}_{made}", env.proc);
                let base = f.symbol(&name, Type::Int);
                // Inside the address space, aligned, and apart from every
                // other live object whose address the process knows.
                let mut facts = vec![
                    f.le(f.int(1), base),
                    f.le(f.add(base, size), f.int(ADDRESS_LIMIT)),
                ];
                let var = match root {
                    Root::Shared(v) | Root::Global { var: v, .. } | Root::Local { var: v, .. } => {
                        Some(v)
                    }
                    Root::Heap { .. } => None,
                };
                let model = env.model();
                let align = var.map_or(1, |v| alignment(&model.structs, &model.var(v).ty));
                if align > 1 {
                    facts.push(f.eq(f.int_mod(base, f.int(align)), f.int(0)));
                }
                for other in known {
                    facts.push(f.or(
                        f.le(f.add(base, size), other.base),
                        f.le(f.add(other.base, other.size), base),
                    ));
                }
                ev.assumed.extend(facts);
                let entry = KnownAddress {
                    object: key,
                    base,
                    size,
                };
                set_mpi(env, |m| {
                    m.addresses.push(entry);
                    m.addresses_made += 1;
                });
                base
            }
        };
        let address = Value::Data(f.add(base, offset));
        write_through(
            ev,
            env,
            call.arg(ArgRole::AddressOut),
            address,
            "address",
            span,
        )
    }

    /// `MPI_Aint_add(base, disp)` and `MPI_Aint_diff(addr1, addr2)`: the sum
    /// and the difference, as integers (the unknown base of an object cancels
    /// in the difference of two addresses inside it).
    pub(super) fn aint_arithmetic(&mut self, subtract: AintOp) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let left = ev.eval_int(&*env, call.arg(ArgRole::AintLeft))?;
        let right = ev.eval_int(&*env, call.arg(ArgRole::AintRight))?;
        let result = match subtract {
            AintOp::Add => f.add(left, right),
            AintOp::Diff => f.sub(left, right),
        };
        // The result is the call's value, not MPI_SUCCESS: the call ends here.
        self.return_value(result)
    }
}

/// Which of the two address operations.
#[derive(Clone, Copy)]
pub(super) enum AintOp {
    /// `MPI_Aint_add`
    Add,
    /// `MPI_Aint_diff`
    Diff,
}
