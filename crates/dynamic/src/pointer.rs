//! Pointers as (dynamic variable, path).

use smallvec::SmallVec;
use tass_model::api::VarId;
use tass_symbolic::api::Expr;

/// The dynamic variable a pointer starts from.
///
/// Processes, frames and heap objects are numbered by position (rank, depth in
/// the call stack from the bottom, index in the process's heap); `tass-state`
/// renumbers heap objects canonically and rewrites pointers accordingly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    /// A shared input or output variable.
    Shared(VarId),
    /// A process-global variable of process `proc`.
    Global {
        /// rank of the process
        proc: u32,
        /// the variable
        var: VarId,
    },
    /// A parameter or local of the frame at depth `frame` (0 = bottom) of process `proc`.
    Local {
        /// rank of the process
        proc: u32,
        /// depth of the frame in the call stack (0 is `main`'s frame)
        frame: u32,
        /// the variable
        var: VarId,
    },
    /// Heap object `object` of process `proc`.
    Heap {
        /// rank of the process
        proc: u32,
        /// index in the process's heap
        object: u32,
    },
}

/// One step of a path inside a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// Element of an array (an integer expression, maybe symbolic).
    Index(Expr),
    /// Field of a struct, by position.
    Field(u32),
}

/// A pointer value: null, (root variable, path inside it), or a byte view.
///
/// A pointer to an array element may point one past the end (C allows forming it,
/// not dereferencing it); the path's last [`Step::Index`] is then the extent.
///
/// A pointer cast to `char *`, `unsigned char *` or `void *` keeps its path until
/// arithmetic in bytes moves it off the elements of its object; it then becomes a
/// [`Pointer::Bytes`] view, which a cast back to `T *` or a dereference turns into a
/// path again (see `tass-semantics`' `bytes.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pointer {
    /// The null pointer.
    Null,
    /// A pointer into a dynamic variable.
    To {
        /// The variable.
        root: Root,
        /// The path from the variable to the object pointed to.
        path: SmallVec<[Step; 2]>,
    },
    /// A byte view: `offset` bytes (an integer expression, maybe symbolic) from the
    /// start of the whole variable or heap block `root`, laid out as C lays it out.
    Bytes {
        /// The variable or heap block.
        root: Root,
        /// Byte offset from its start (0 ..= its size).
        offset: Expr,
    },
}

impl Pointer {
    /// A pointer to the part of `root` that `path` selects.
    pub fn to(root: Root, path: impl IntoIterator<Item = Step>) -> Pointer {
        Pointer::To {
            root,
            path: path.into_iter().collect(),
        }
    }

    /// The root variable (`None` for null).
    pub fn root(&self) -> Option<Root> {
        match self {
            Pointer::Null => None,
            Pointer::To { root, .. } | Pointer::Bytes { root, .. } => Some(*root),
        }
    }

    /// The path (empty for null and byte views).
    pub fn path(&self) -> &[Step] {
        match self {
            Pointer::Null | Pointer::Bytes { .. } => &[],
            Pointer::To { path, .. } => path,
        }
    }

    /// True for the null pointer.
    pub fn is_null(&self) -> bool {
        matches!(self, Pointer::Null)
    }

    /// The same pointer with the root replaced by `f(root)` (used when heap objects
    /// are renumbered).
    pub fn map_root(&self, f: impl FnOnce(Root) -> Root) -> Pointer {
        match self {
            Pointer::Null => Pointer::Null,
            Pointer::To { root, path } => Pointer::To {
                root: f(*root),
                path: path.clone(),
            },
            Pointer::Bytes { root, offset } => Pointer::Bytes {
                root: f(*root),
                offset: *offset,
            },
        }
    }

    /// The same pointer with every index expression (and byte offset) replaced by
    /// `f(index)` (used when values are simplified).
    pub fn map_indices(&self, mut f: impl FnMut(Expr) -> Expr) -> Pointer {
        match self {
            Pointer::Null => Pointer::Null,
            Pointer::To { root, path } => Pointer::To {
                root: *root,
                path: path
                    .iter()
                    .map(|s| match *s {
                        Step::Index(i) => Step::Index(f(i)),
                        Step::Field(k) => Step::Field(k),
                    })
                    .collect(),
            },
            Pointer::Bytes { root, offset } => Pointer::Bytes {
                root: *root,
                offset: f(*offset),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tass_symbolic::api::{ExprFactory, Type};

    #[test]
    fn map_root_keeps_path() {
        let f = ExprFactory::new();
        let i = f.symbol("i", Type::Int);
        let p = Pointer::to(Root::Heap { proc: 0, object: 3 }, [Step::Index(i)]);
        let q = p.map_root(|_| Root::Heap { proc: 0, object: 0 });
        assert_eq!(q.path(), &[Step::Index(i)]);
        assert_eq!(q.root(), Some(Root::Heap { proc: 0, object: 0 }));
        assert!(Pointer::Null.map_root(|r| r).is_null());
    }

    #[test]
    fn map_indices_rewrites_indices_only() {
        let f = ExprFactory::new();
        let i = f.symbol("i", Type::Int);
        let p = Pointer::to(Root::Shared(VarId(1)), [Step::Field(2), Step::Index(i)]);
        let q = p.map_indices(|_| f.int(4));
        assert_eq!(q.path(), &[Step::Field(2), Step::Index(f.int(4))]);
    }
}
