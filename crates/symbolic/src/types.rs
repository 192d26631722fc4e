//! Public value types of the crate: expression handles, types, views, values.

use std::fmt;
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use smallvec::SmallVec;

/// A handle to an interned symbolic expression.
///
/// Two handles made by the same [`ExprFactory`](crate::api::ExprFactory) are equal
/// exactly when the expressions are structurally identical after canonicalization,
/// so `==` and hashing are O(1). A handle is meaningless with another factory.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Expr(pub(crate) u32);

impl Expr {
    /// The numeric id of this expression inside its factory (dense, starting at 0).
    pub fn id(self) -> u32 {
        self.0
    }
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The type of a symbolic expression.
///
/// `Int` and `Real` are the mathematical integers and reals (unbounded, exact).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Type {
    /// Truth values.
    Bool,
    /// Mathematical (unbounded) integers.
    Int,
    /// Mathematical real numbers.
    Real,
    /// Characters, represented by their code (C `char`).
    Char,
    /// A tuple (C struct) with the given component types, in order.
    Tuple(Arc<[Type]>),
    /// An array: element type and extent (an integer expression; `None` when the
    /// extent is unknown, e.g. an incomplete array type).
    Array(Arc<Type>, Option<Expr>),
    /// An uninterpreted function: argument types and result type.
    Function(Arc<[Type]>, Arc<Type>),
}

impl Type {
    /// An array type with element type `elem` and extent `extent`.
    pub fn array(elem: Type, extent: Option<Expr>) -> Type {
        Type::Array(Arc::new(elem), extent)
    }

    /// A tuple type with the given component types.
    pub fn tuple(components: impl IntoIterator<Item = Type>) -> Type {
        Type::Tuple(components.into_iter().collect())
    }

    /// A function type `args -> result`.
    pub fn function(args: impl IntoIterator<Item = Type>, result: Type) -> Type {
        Type::Function(args.into_iter().collect(), Arc::new(result))
    }

    /// True for `Int` and `Real`.
    pub fn is_numeric(&self) -> bool {
        matches!(self, Type::Int | Type::Real)
    }

    /// The element type of an array type.
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::Array(e, _) => Some(e),
            _ => None,
        }
    }
}

/// The four relational forms of the boolean canonical form: `f > 0`, `f >= 0`,
/// `f == 0`, `f != 0`, where `f` is a numeric expression.
///
/// Integer relations are normalized to `Ge`, `Eq` and `Ne` only (`f > 0` becomes
/// `f - 1 >= 0`); real relations use all four.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum RelOp {
    /// `f > 0`
    Gt,
    /// `f >= 0`
    Ge,
    /// `f == 0`
    Eq,
    /// `f != 0`
    Ne,
}

/// The kind of a quantifier.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Quantifier {
    /// For all values of the bound variable.
    Forall,
    /// For some value of the bound variable.
    Exists,
}

/// A read-only structural view of one expression node: its operator and children.
///
/// It is exhaustive: every expression the factory can build is shown as exactly one
/// of these variants, so a translator (e.g. to SMT-LIB) can `match` on it without a
/// catch-all. Children are again [`Expr`]s; the node's type is
/// [`ExprFactory::type_of`](crate::api::ExprFactory::type_of).
///
/// Numeric canonical forms appear as `Add` (a sum of at least two terms), `Mul`
/// (a product: an optional leading concrete coefficient, then factors), `Pow`
/// (a primitive raised to a concrete power >= 2) and `Div` (a real quotient).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ExprView {
    /// A concrete boolean.
    Bool(bool),
    /// A concrete integer.
    Int(BigInt),
    /// A concrete real (an exact rational).
    Real(BigRational),
    /// A concrete character (its code).
    Char(u32),
    /// A symbolic constant (also used as the bound variable of quantifiers and
    /// array lambdas), with its name. Its type is given by `type_of`.
    Symbol(Arc<str>),
    /// Sum of the children (at least two), all of the node's numeric type.
    Add(Vec<Expr>),
    /// Product of the children (at least two), all of the node's numeric type.
    Mul(Vec<Expr>),
    /// `base` raised to a concrete exponent >= 2.
    Pow(Expr, u32),
    /// Real division `numerator / denominator`.
    Div(Expr, Expr),
    /// C integer division (truncation toward zero); `x / 0` is defined as `0`.
    IntDiv(Expr, Expr),
    /// C remainder (sign of the dividend); `x % 0` is defined as `x`.
    IntMod(Expr, Expr),
    /// Integer -> real conversion (exact).
    ToReal(Expr),
    /// Real -> integer conversion (truncation toward zero).
    ToInt(Expr),
    /// Any other conversion to the node's type (e.g. int <-> char).
    Cast(Expr),
    /// The relation `f op 0`, `f` numeric.
    Rel(RelOp, Expr),
    /// Equality of two non-numeric, non-boolean values (chars, tuples, arrays,
    /// functions).
    Equal(Expr, Expr),
    /// Conjunction of the children (at least two).
    And(Vec<Expr>),
    /// Disjunction of the children (at least two). In CNF the children are
    /// literals; when distributing a disjunction would create too many clauses
    /// (more than 256) the children are kept as they are (any boolean).
    Or(Vec<Expr>),
    /// Negation of a boolean primitive (or, beyond the CNF size limit, of any
    /// boolean expression).
    Not(Expr),
    /// `if cond then a else b`.
    Ite(Expr, Expr, Expr),
    /// `array[index]`.
    ArrayRead(Expr, Expr),
    /// The array equal to `array` except at `index`, where it holds `value`.
    ArrayWrite(Expr, Expr, Expr),
    /// `base` modified at concrete indices: element `i` of `elements`, when
    /// `Some(v)`, gives the value at index `i` (paper Sec. 4.5).
    ConcreteArray {
        /// The array being modified.
        base: Expr,
        /// New values at indices `0..elements.len()`; `None` keeps `base`'s value.
        elements: Vec<Option<Expr>>,
    },
    /// The array whose element `i` is `body[var := i]` (extent from its type).
    ArrayLambda {
        /// The bound integer variable (a symbol).
        var: Expr,
        /// The element expression.
        body: Expr,
    },
    /// A concrete tuple of the children.
    Tuple(Vec<Expr>),
    /// Component `index` of a tuple.
    TupleRead(Expr, u32),
    /// Application of an uninterpreted function (a symbol of function type) to
    /// arguments.
    Apply(Expr, Vec<Expr>),
    /// A quantified boolean expression over an integer or real variable.
    Quant {
        /// Forall or exists.
        kind: Quantifier,
        /// The bound variable (a symbol).
        var: Expr,
        /// The body (boolean).
        body: Expr,
    },
}

/// A concrete value, the result of [`ExprFactory::eval`](crate::api::ExprFactory::eval).
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(BigInt),
    /// A real (exact rational).
    Real(BigRational),
    /// A character code.
    Char(u32),
    /// A tuple.
    Tuple(Vec<Value>),
    /// An array (its elements, index 0 first).
    Array(Vec<Value>),
}

/// A concrete interpretation of an uninterpreted function, used by evaluation.
pub type FunctionValue = Arc<dyn Fn(&[Value]) -> Option<Value> + Send + Sync>;

/// An assignment of concrete values to symbolic constants, for
/// [`ExprFactory::eval`](crate::api::ExprFactory::eval).
#[derive(Clone, Default)]
pub struct Assignment {
    pub(crate) values: hashbrown::HashMap<Expr, Value>,
    pub(crate) functions: hashbrown::HashMap<Expr, FunctionValue>,
}

impl Assignment {
    /// An empty assignment.
    pub fn new() -> Self {
        Self::default()
    }

    /// Gives symbolic constant `symbol` the value `value`.
    pub fn set(&mut self, symbol: Expr, value: Value) -> &mut Self {
        self.values.insert(symbol, value);
        self
    }

    /// Gives the function-typed symbolic constant `symbol` an interpretation.
    pub fn set_function(&mut self, symbol: Expr, f: FunctionValue) -> &mut Self {
        self.functions.insert(symbol, f);
        self
    }

    /// The value given to `symbol`, if any.
    pub fn get(&self, symbol: Expr) -> Option<&Value> {
        self.values.get(&symbol)
    }
}

impl fmt::Debug for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Assignment")
            .field("values", &self.values)
            .field("functions", &self.functions.len())
            .finish()
    }
}

/// Why [`ExprFactory::eval`](crate::api::ExprFactory::eval) could not give a value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EvalError {
    /// A symbolic constant (named) has no value in the assignment.
    Unassigned(String),
    /// Real division by zero.
    DivisionByZero,
    /// An array index outside the array value.
    IndexOutOfBounds {
        /// The index.
        index: BigInt,
        /// The array length.
        len: usize,
    },
    /// The expression cannot be evaluated concretely (e.g. a quantifier over an
    /// infinite domain); the string says what.
    Unsupported(String),
    /// The value of a subexpression had the wrong shape (an ill-typed assignment).
    TypeMismatch(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Unassigned(n) => write!(f, "symbolic constant `{n}` has no value"),
            EvalError::DivisionByZero => write!(f, "real division by zero"),
            EvalError::IndexOutOfBounds { index, len } => {
                write!(f, "array index {index} out of bounds (length {len})")
            }
            EvalError::Unsupported(w) => write!(f, "cannot evaluate concretely: {w}"),
            EvalError::TypeMismatch(w) => write!(f, "value of the wrong type: {w}"),
        }
    }
}

impl std::error::Error for EvalError {}

/// Children list used in nodes.
pub(crate) type Kids = SmallVec<[Expr; 4]>;
