//! One MPI function's description and the questions asked of it: where an
//! argument with a role stands, the envelope and halves of a send or receive,
//! and the C prototype `<mpi.h>` declares.

use super::kinds::{ArgRole, Blocking, CollectiveOp, MpiKind};
use super::MPI_FUNCTIONS;
use crate::library::LibraryFunction;

/// One parameter of an MPI function's prototype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The C type as the prototype writes it (`"const void *"`, `"int"`).
    pub c_type: &'static str,
    /// The parameter's name in the prototype.
    pub name: &'static str,
    /// What the argument is for.
    pub role: ArgRole,
}

/// One MPI function: kind, blocking, result type and parameters in C order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MpiFunction {
    /// The function.
    pub function: LibraryFunction,
    /// What it does.
    pub kind: MpiKind,
    /// Whether it may wait for other processes.
    pub blocking: Blocking,
    /// The C result type.
    pub result: &'static str,
    /// The parameters, in C order.
    pub params: &'static [Param],
}

impl MpiFunction {
    /// The position of the first argument with role `role`.
    pub fn position(&self, role: ArgRole) -> Option<usize> {
        self.params.iter().position(|p| p.role == role)
    }

    /// The position of the first argument with one of `roles` (tried in order).
    pub fn position_of_any(&self, roles: &[ArgRole]) -> Option<usize> {
        roles.iter().find_map(|&r| self.position(r))
    }

    /// The collective operation, for a collective call.
    pub fn collective(&self) -> Option<CollectiveOp> {
        match self.kind {
            MpiKind::Collective(op) => Some(op),
            _ => None,
        }
    }

    /// The collective operation a persistent collective init binds.
    pub fn persistent_collective(&self) -> Option<CollectiveOp> {
        match self.kind {
            MpiKind::PersistentCollective(op) => Some(op),
            _ => None,
        }
    }

    /// True for a nonblocking operation, which returns a request
    /// (`MPI_Isend`, `MPI_Irecv`, `MPI_Ibcast`, ...).
    pub fn returns_request(&self) -> bool {
        self.blocking == Blocking::Returns
            && !matches!(
                self.kind,
                MpiKind::Completion
                    | MpiKind::PersistentInit
                    | MpiKind::PersistentCollective(_)
                    | MpiKind::Start
            )
            && self.position(ArgRole::Request).is_some()
    }

    /// The positions of the destination, the tag and the communicator of the
    /// send (or send half) this call makes.
    pub fn send_envelope(&self) -> Option<Envelope> {
        match self.kind {
            MpiKind::Send | MpiKind::SendReceive => Some(Envelope {
                rank: self.position(ArgRole::Dest)?,
                tag: self.position_of_any(&[ArgRole::Tag, ArgRole::SendTag])?,
                comm: self.position(ArgRole::Comm)?,
            }),
            _ => None,
        }
    }

    /// The positions of the source, the tag and the communicator of the
    /// receive (or receive half, or probe) this call makes.
    pub fn receive_envelope(&self) -> Option<Envelope> {
        match self.kind {
            MpiKind::Receive | MpiKind::SendReceive | MpiKind::Probe => Some(Envelope {
                rank: self.position(ArgRole::Source)?,
                tag: self.position_of_any(&[ArgRole::Tag, ArgRole::RecvTag])?,
                comm: self.position(ArgRole::Comm)?,
            }),
            _ => None,
        }
    }

    /// The positions of (buffer, count, datatype, destination, tag,
    /// communicator) of the send (or send half) this call makes.
    pub fn send_half(&self) -> Option<[usize; 6]> {
        use ArgRole::*;
        if !matches!(self.kind, MpiKind::Send | MpiKind::SendReceive) {
            return None;
        }
        self.positions([
            &[SendBuffer, Buffer],
            &[SendCount, Count],
            &[SendType, Datatype],
            &[Dest],
            &[SendTag, Tag],
            &[Comm],
        ])
    }

    /// The positions of (buffer, count, datatype, source, tag, communicator,
    /// status) of the blocking receive (or receive half) this call makes.
    pub fn receive_half(&self) -> Option<[usize; 7]> {
        use ArgRole::*;
        if !matches!(self.kind, MpiKind::Receive | MpiKind::SendReceive) {
            return None;
        }
        self.positions([
            &[RecvBuffer, Buffer],
            &[RecvCount, Count],
            &[RecvType, Datatype],
            &[Source],
            &[RecvTag, Tag],
            &[Comm],
            &[Status],
        ])
    }

    /// The position of an argument for each list of roles (each list tried
    /// in order); `None` when one of them has no argument.
    fn positions<const N: usize>(&self, roles: [&[ArgRole]; N]) -> Option<[usize; N]> {
        let mut found = [0; N];
        for (slot, roles) in found.iter_mut().zip(roles) {
            *slot = self.position_of_any(roles)?;
        }
        Some(found)
    }

    /// The C prototype, as `<mpi.h>` declares it.
    pub fn prototype(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let gap = if p.c_type.ends_with('*') { "" } else { " " };
                format!("{}{gap}{}", p.c_type, p.name)
            })
            .collect();
        let params = if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        };
        format!("{} {}({params});", self.result, self.function.c_name())
    }
}

/// Argument positions of a point-to-point envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// The destination or source rank.
    pub rank: usize,
    /// The tag.
    pub tag: usize,
    /// The communicator.
    pub comm: usize,
}

impl LibraryFunction {
    /// The description of an MPI function (`None` for the other libraries).
    pub fn mpi(self) -> Option<&'static MpiFunction> {
        let first = LibraryFunction::MpiInit as usize;
        let d = MPI_FUNCTIONS.get((self as usize).checked_sub(first)?)?;
        debug_assert_eq!(
            d.function, self,
            "MPI_FUNCTIONS follows LibraryFunction's order"
        );
        Some(d)
    }
}
