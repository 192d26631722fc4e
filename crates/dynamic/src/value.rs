//! Dynamic values and navigation inside them.

use std::fmt;
use std::sync::Arc;

use tass_model::api::{LibraryConstant, Model, Type as ModelType};
use tass_symbolic::api::{Expr, ExprFactory, ExprView, Type};

use crate::pointer::{Pointer, Step};

/// Name of the symbolic constant that stands for "never written" data: an
/// uninitialised array of scalars is this symbol (at the array's type), so reading
/// an element that was never written yields `__tass_undef[i]`, which
/// [`is_undefined_data`] recognises.
pub const UNDEFINED_SYMBOL: &str = "__tass_undef";

/// An MPI handle value (communicator, request, datatype, operation, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Handle {
    /// A library constant: `MPI_COMM_WORLD`, `MPI_INT`, `MPI_SUM`, `MPI_REQUEST_NULL`, ...
    Constant(LibraryConstant),
    /// A communicator created at run time (`MPI_Comm_dup`/`MPI_Comm_split`), by number.
    Comm(u32),
    /// A request of a nonblocking operation, by number within its process.
    Request(u32),
    /// A group (`MPI_Comm_group`, `MPI_Group_incl`, ...), by number within
    /// its process.
    Group(u32),
    /// A user operator (`MPI_Op_create`), by number within its process.
    Op(u32),
    /// A window of one-sided communication (`MPI_Win_create`), by number.
    Win(u32),
    /// A derived datatype (`MPI_Type_contiguous`, ...), by number within its
    /// process.
    Datatype(u32),
}

/// The value of a dynamic variable or of a part of one.
///
/// `Data` covers everything a symbolic expression can hold directly: booleans,
/// integers, reals, chars and (nested) arrays of them, whatever their extent.
/// Structs and arrays whose elements are pointers, structs or handles are
/// spelled out component by component (such arrays need a concrete extent).
/// Components are behind `Arc`, so cloning a value is cheap and writes copy only
/// the path they change.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// Never assigned (C's indeterminate value). Reading it is a violation.
    Undefined,
    /// A symbolic expression of a data type (bool, int, real, char, arrays of those).
    Data(Expr),
    /// A pointer.
    Pointer(Pointer),
    /// A struct: its fields in order.
    Struct(Arc<Vec<Value>>),
    /// An array of non-data elements (pointers, structs, handles), concrete extent.
    Array(Arc<Vec<Value>>),
    /// An MPI handle.
    Handle(Handle),
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Undefined => write!(f, "undef"),
            Value::Data(e) => write!(f, "{e:?}"),
            Value::Pointer(p) => write!(f, "{p:?}"),
            Value::Struct(v) => f.debug_tuple("struct").field(&**v).finish(),
            Value::Array(v) => f.debug_list().entries(v.iter()).finish(),
            Value::Handle(h) => write!(f, "{h:?}"),
        }
    }
}

impl Value {
    /// The expression of a `Data` value.
    pub fn as_data(&self) -> Option<Expr> {
        match self {
            Value::Data(e) => Some(*e),
            _ => None,
        }
    }

    /// The pointer of a `Pointer` value.
    pub fn as_pointer(&self) -> Option<&Pointer> {
        match self {
            Value::Pointer(p) => Some(p),
            _ => None,
        }
    }

    /// Calls `f` on every pointer in this value (depth first, in field/element order).
    pub fn for_each_pointer(&self, f: &mut dyn FnMut(&Pointer)) {
        match self {
            Value::Pointer(p) => f(p),
            Value::Struct(v) | Value::Array(v) => v.iter().for_each(|x| x.for_each_pointer(f)),
            _ => {}
        }
    }

    /// This value with every pointer replaced by `f(pointer)` and every data
    /// expression by `g(expr)` (pointer index expressions are passed to `g` too).
    /// Components that do not change stay shared.
    pub fn map(
        &self,
        f: &mut dyn FnMut(&Pointer) -> Pointer,
        g: &mut dyn FnMut(Expr) -> Expr,
    ) -> Value {
        match self {
            Value::Undefined | Value::Handle(_) => self.clone(),
            Value::Data(e) => Value::Data(g(*e)),
            Value::Pointer(p) => Value::Pointer(f(&p.map_indices(&mut *g))),
            Value::Struct(v) => match map_components(v, f, g) {
                Some(new) => Value::Struct(new),
                None => self.clone(),
            },
            Value::Array(v) => match map_components(v, f, g) {
                Some(new) => Value::Array(new),
                None => self.clone(),
            },
        }
    }
}

/// The components of a struct or array mapped by [`Value::map`]; `None` when
/// none changes (the old ones stay shared).
fn map_components(
    components: &[Value],
    f: &mut dyn FnMut(&Pointer) -> Pointer,
    g: &mut dyn FnMut(Expr) -> Expr,
) -> Option<Arc<Vec<Value>>> {
    let new: Vec<Value> = components.iter().map(|x| x.map(f, g)).collect();
    (new != components).then(|| Arc::new(new))
}

/// Why a navigation inside a value failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    /// The path goes through an undefined value (the caller decides: an
    /// uninitialised read, or materialise the value from its type and retry).
    Undefined,
    /// An element of an array of pointers/structs at a symbolic index.
    SymbolicIndex,
    /// A concrete index outside an array of pointers/structs (checks should have
    /// caught it first).
    IndexOutOfRange,
    /// The path does not fit the value's shape (e.g. a field of an array).
    Shape(String),
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessError::Undefined => write!(f, "access inside an undefined value"),
            AccessError::SymbolicIndex => write!(
                f,
                "index into an array of pointers or structs must be concrete (it is symbolic here)"
            ),
            AccessError::IndexOutOfRange => write!(f, "index outside the array"),
            AccessError::Shape(s) => write!(f, "value does not have the expected shape: {s}"),
        }
    }
}

impl std::error::Error for AccessError {}

fn concrete_index(f: &ExprFactory, i: Expr, len: usize) -> Result<usize, AccessError> {
    let k = f.as_concrete_int(i).ok_or(AccessError::SymbolicIndex)?;
    let k: usize = k.try_into().map_err(|_| AccessError::IndexOutOfRange)?;
    if k < len {
        Ok(k)
    } else {
        Err(AccessError::IndexOutOfRange)
    }
}

/// The part of `value` that `path` selects.
pub fn read_at(f: &ExprFactory, value: &Value, path: &[Step]) -> Result<Value, AccessError> {
    let Some((first, rest)) = path.split_first() else {
        return Ok(value.clone());
    };
    match (value, first) {
        (Value::Undefined, _) => Err(AccessError::Undefined),
        (Value::Data(e), Step::Index(i)) => {
            if !matches!(f.type_of(*e), Type::Array(..)) {
                return Err(AccessError::Shape("index into a non-array".into()));
            }
            read_at(
                f,
                &Value::Data(f.array_read(peel_array_cast(f, *e), *i)),
                rest,
            )
        }
        (Value::Array(v), Step::Index(i)) => read_at(f, &v[concrete_index(f, *i, v.len())?], rest),
        (Value::Struct(v), Step::Field(k)) => match v.get(*k as usize) {
            Some(x) => read_at(f, x, rest),
            None => Err(AccessError::Shape(format!("no field {k}"))),
        },
        (v, s) => Err(AccessError::Shape(format!("step {s:?} into {v:?}"))),
    }
}

/// An array seen through conversions between array types (which differ only in
/// how their extents are written, e.g. `N` vs `1` after simplification under
/// `N == 1`), so that reads at concrete indices fold.
fn peel_array_cast(f: &ExprFactory, mut e: Expr) -> Expr {
    while let ExprView::Cast(inner) = f.view(e) {
        if !matches!(f.type_of(inner), Type::Array(..)) {
            break;
        }
        e = inner;
    }
    e
}

/// Replaces the part of `value` that `path` selects by `new`.
///
/// Writing into symbolic array data turns into `array_write`s; writing
/// [`Value::Undefined`] into data writes the undefined marker.
pub fn write_at(
    f: &ExprFactory,
    value: &mut Value,
    path: &[Step],
    new: Value,
) -> Result<(), AccessError> {
    let Some((first, rest)) = path.split_first() else {
        *value = new;
        return Ok(());
    };
    match (value, first) {
        (Value::Undefined, _) => Err(AccessError::Undefined),
        (Value::Data(e), Step::Index(i)) => {
            let Type::Array(elem, _) = f.type_of(*e) else {
                return Err(AccessError::Shape("index into a non-array".into()));
            };
            let mut sub = Value::Data(f.array_read(*e, *i));
            write_at(f, &mut sub, rest, new)?;
            let sub = match sub {
                Value::Data(x) => x,
                Value::Undefined => undefined_data(f, (*elem).clone()),
                other => {
                    return Err(AccessError::Shape(format!(
                        "storing non-data value {other:?} into a data array"
                    )))
                }
            };
            *e = f.array_write(*e, *i, sub);
            Ok(())
        }
        (Value::Array(v), Step::Index(i)) => {
            let k = concrete_index(f, *i, v.len())?;
            write_at(f, &mut Arc::make_mut(v)[k], rest, new)
        }
        (Value::Struct(v), Step::Field(k)) => {
            let k = *k as usize;
            if k >= v.len() {
                return Err(AccessError::Shape(format!("no field {k}")));
            }
            write_at(f, &mut Arc::make_mut(v)[k], rest, new)
        }
        (v, s) => Err(AccessError::Shape(format!("step {s:?} into {v:?}"))),
    }
}

/// The "never written" data of symbolic type `ty` (see [`UNDEFINED_SYMBOL`]).
pub fn undefined_data(f: &ExprFactory, ty: Type) -> Expr {
    f.symbol(UNDEFINED_SYMBOL, ty)
}

/// True if `e` is undefined data or an element (at any depth) of undefined data.
pub fn is_undefined_data(f: &ExprFactory, mut e: Expr) -> bool {
    loop {
        // A polynomial is none of the kinds below, and its view would intern
        // every term (every read of a numeric value comes here).
        if f.is_polynomial(e) {
            return false;
        }
        match f.view(e) {
            ExprView::Symbol(name) => return &*name == UNDEFINED_SYMBOL,
            ExprView::ArrayRead(a, _) => e = a,
            ExprView::Cast(a) if matches!(f.type_of(a), Type::Array(..)) => e = a,
            _ => return false,
        }
    }
}

/// `sizeof(ty)` in bytes under the LP64 data model (with C's struct padding, see
/// [`tass_model::api::layout_of`]), when every array extent in `ty` is an integer
/// literal; `None` otherwise.
pub fn size_of(model: &Model, ty: &ModelType) -> Option<u64> {
    tass_model::api::layout_of(&model.structs, ty).map(|l| l.size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pointer::Root;
    use tass_model::api::VarId;

    #[test]
    fn nested_data_arrays_read_back_what_was_written() {
        let f = ExprFactory::new();
        let n = f.symbol("n", Type::Int);
        let row = Type::array(Type::Real, Some(f.int(3)));
        let mut a = Value::Data(undefined_data(&f, Type::array(row, Some(n))));
        let (i, j) = (f.symbol("i", Type::Int), f.int(2));
        let v = Value::Data(f.real_ratio(1, 3));
        write_at(&f, &mut a, &[Step::Index(i), Step::Index(j)], v.clone()).unwrap();
        assert_eq!(
            read_at(&f, &a, &[Step::Index(i), Step::Index(j)]).unwrap(),
            v
        );
        let other = read_at(&f, &a, &[Step::Index(i), Step::Index(f.int(0))]).unwrap();
        assert!(is_undefined_data(&f, other.as_data().unwrap()));
    }

    #[test]
    fn asking_whether_a_sum_is_undefined_interns_nothing() {
        // Every read of a numeric value asks; the view of a sum would intern a
        // node per term, kept by the store for good (most of laplace np 5's
        // memory before).
        let f = ExprFactory::new();
        let xs: Vec<Expr> = (0..8)
            .map(|k| f.symbol(&format!("x{k}"), Type::Real))
            .collect();
        let sum = f.add_all(
            &Type::Real,
            xs.iter().map(|&x| f.mul(f.real_ratio(1, 4), x)),
        );
        let nodes = f.len();
        assert!(!is_undefined_data(&f, sum));
        assert_eq!(f.len(), nodes);
        let undefined = undefined_data(&f, Type::Real);
        assert!(is_undefined_data(&f, undefined));
    }

    #[test]
    fn struct_and_pointer_arrays_need_concrete_indices() {
        let f = ExprFactory::new();
        let arr = Value::Array(Arc::new(vec![Value::Pointer(Pointer::Null); 2]));
        let mut s = Value::Struct(Arc::new(vec![Value::Data(f.int(1)), arr]));
        let p = Pointer::to(Root::Shared(VarId(0)), []);
        write_at(
            &f,
            &mut s,
            &[Step::Field(1), Step::Index(f.int(1))],
            Value::Pointer(p.clone()),
        )
        .unwrap();
        assert_eq!(
            read_at(&f, &s, &[Step::Field(1), Step::Index(f.int(1))]).unwrap(),
            Value::Pointer(p)
        );
        let i = f.symbol("i", Type::Int);
        assert_eq!(
            read_at(&f, &s, &[Step::Field(1), Step::Index(i)]),
            Err(AccessError::SymbolicIndex)
        );
        assert_eq!(
            read_at(&f, &s, &[Step::Field(1), Step::Index(f.int(2))]),
            Err(AccessError::IndexOutOfRange)
        );
        let mut count = 0;
        s.for_each_pointer(&mut |_| count += 1);
        assert_eq!(count, 2);
    }

    #[test]
    fn undefined_blocks_navigation() {
        let f = ExprFactory::new();
        let mut u = Value::Undefined;
        assert_eq!(
            read_at(&f, &u, &[Step::Field(0)]),
            Err(AccessError::Undefined)
        );
        assert_eq!(
            write_at(&f, &mut u, &[Step::Field(0)], Value::Undefined),
            Err(AccessError::Undefined)
        );
        assert!(!is_undefined_data(&f, f.int(0)));
    }
}

#[cfg(test)]
mod cast_tests {
    use super::*;

    #[test]
    fn reads_see_through_array_casts() {
        let f = ExprFactory::new();
        let n = f.symbol("N", Type::Int);
        let a = f.symbol("a", Type::Real);
        let row = f.array_write(
            undefined_data(&f, Type::array(Type::Real, Some(n))),
            f.int(0),
            a,
        );
        let cast = f.cast(row, &Type::array(Type::Real, Some(f.int(1))));
        let v = read_at(&f, &Value::Data(cast), &[Step::Index(f.int(0))]).unwrap();
        assert_eq!(v, Value::Data(a));
    }
}
