//! Types of model variables and expressions.

use crate::expr::Expr;
use crate::span::Span;

/// The C integer type an `Int` came from. All of them denote the mathematical
/// integers in the model; the kind is kept for printing only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntKind {
    /// `unsigned char` (`char` and `signed char` are [`Type::Char`]): an 8-bit
    /// unsigned integer, so its arithmetic wraps modulo 256.
    UnsignedChar,
    /// `short`
    Short,
    /// `unsigned short`
    UnsignedShort,
    /// `int` (also an enum with a negative enumerator)
    Int,
    /// `unsigned int` (also an enum whose enumerators are all nonnegative)
    Unsigned,
    /// `long`
    Long,
    /// `unsigned long` (also `size_t`)
    UnsignedLong,
    /// `long long`
    LongLong,
    /// `unsigned long long`
    UnsignedLongLong,
}

impl IntKind {
    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            IntKind::UnsignedChar => "unsigned char",
            IntKind::Short => "short",
            IntKind::UnsignedShort => "unsigned short",
            IntKind::Int => "int",
            IntKind::Unsigned => "unsigned",
            IntKind::Long => "long",
            IntKind::UnsignedLong => "unsigned long",
            IntKind::LongLong => "long long",
            IntKind::UnsignedLongLong => "unsigned long long",
        }
    }

    /// The width in bits under LP64 (x86-64 Linux with gcc or clang): `short` 16,
    /// `int` 32, `long` and `long long` 64.
    pub fn bits(self) -> u32 {
        match self {
            IntKind::UnsignedChar => 8,
            IntKind::Short | IntKind::UnsignedShort => 16,
            IntKind::Int | IntKind::Unsigned => 32,
            IntKind::Long
            | IntKind::UnsignedLong
            | IntKind::LongLong
            | IntKind::UnsignedLongLong => 64,
        }
    }

    /// True for the unsigned types.
    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            IntKind::UnsignedChar
                | IntKind::UnsignedShort
                | IntKind::Unsigned
                | IntKind::UnsignedLong
                | IntKind::UnsignedLongLong
        )
    }

    /// C's integer conversion rank (C11 6.3.1.1): a signed type and its unsigned
    /// form share a rank.
    pub fn rank(self) -> u8 {
        match self {
            IntKind::UnsignedChar => 1,
            IntKind::Short | IntKind::UnsignedShort => 2,
            IntKind::Int | IntKind::Unsigned => 3,
            IntKind::Long | IntKind::UnsignedLong => 4,
            IntKind::LongLong | IntKind::UnsignedLongLong => 5,
        }
    }

    /// The unsigned type of the same rank.
    pub fn to_unsigned(self) -> IntKind {
        match self {
            IntKind::Short => IntKind::UnsignedShort,
            IntKind::Int => IntKind::Unsigned,
            IntKind::Long => IntKind::UnsignedLong,
            IntKind::LongLong => IntKind::UnsignedLongLong,
            unsigned => unsigned,
        }
    }

    /// The least and greatest values of the type (two's complement for the
    /// signed types).
    pub fn range(self) -> (i128, i128) {
        let bits = self.bits();
        if self.is_unsigned() {
            (0, (1i128 << bits) - 1)
        } else {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        }
    }
}

/// The values of plain `char` and `signed char`: gcc and clang make plain `char`
/// signed on x86-64, and tass follows them.
pub const CHAR_RANGE: (i128, i128) = (-128, 127);

/// The value of a byte of a character constant or string literal as a plain
/// `char`: `'\xff'` is -1, as with gcc and clang (C11 6.4.4.4p10).
pub fn char_byte_value(byte: u8) -> i128 {
    byte as i8 as i128
}

/// The C floating type a `Real` came from. All denote the mathematical reals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RealKind {
    /// `float`
    Float,
    /// `double`
    Double,
    /// `long double`
    LongDouble,
}

impl RealKind {
    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            RealKind::Float => "float",
            RealKind::Double => "double",
            RealKind::LongDouble => "long double",
        }
    }
}

/// The opaque MPI handle types of `<mpi.h>`. (`MPI_Status` is a struct, see
/// [`crate::program::Model::mpi_status_struct`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MpiHandleType {
    /// `MPI_Comm`
    Comm,
    /// `MPI_Request`
    Request,
    /// `MPI_Datatype`
    Datatype,
    /// `MPI_Op`
    Op,
    /// `MPI_Group`
    Group,
    /// `MPI_Win` (one-sided communication)
    Win,
}

impl MpiHandleType {
    /// The C spelling.
    pub fn c_name(self) -> &'static str {
        match self {
            MpiHandleType::Comm => "MPI_Comm",
            MpiHandleType::Request => "MPI_Request",
            MpiHandleType::Datatype => "MPI_Datatype",
            MpiHandleType::Op => "MPI_Op",
            MpiHandleType::Group => "MPI_Group",
            MpiHandleType::Win => "MPI_Win",
        }
    }
}

/// Index of a struct definition in [`crate::program::Model::structs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub u32);

/// A model type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `void` (function results, `void *` pointees).
    Void,
    /// `_Bool` / `bool`, also the type of conditions and guards.
    Bool,
    /// `char`, `signed char`, `unsigned char`: a separate type whose values are
    /// integers (character codes).
    Char,
    /// Any C integer type: the mathematical integers.
    Int(IntKind),
    /// `float`, `double`, `long double`: the mathematical reals.
    Real(RealKind),
    /// A pointer to the given type.
    Pointer(Box<Type>),
    /// An array of the element type. The extent is `None` for incomplete array
    /// types (`int a[]` parameters, `char *argv[]`). A non-constant extent
    /// (variable-length array, `double u[nxl+2]`) is evaluated when the
    /// variable's [`crate::stmt::Statement::Declare`] executes.
    Array(Box<Type>, Option<Box<Expr>>),
    /// A struct, defined in [`crate::program::Model::structs`].
    Struct(StructId),
    /// An opaque MPI handle.
    Mpi(MpiHandleType),
    /// The type of `spec.x` in a joint pragma: known only when the
    /// specification model is at hand (compare mode).
    Unknown,
}

impl Type {
    /// `int`.
    pub const INT: Type = Type::Int(IntKind::Int);
    /// `double`.
    pub const DOUBLE: Type = Type::Real(RealKind::Double);

    /// The least and greatest values of an integer type (`_Bool`, `char`,
    /// the `Int` kinds); `None` for the others.
    pub fn int_range(&self) -> Option<(i128, i128)> {
        match self {
            Type::Bool => Some((0, 1)),
            Type::Char => Some(CHAR_RANGE),
            Type::Int(k) => Some(k.range()),
            _ => None,
        }
    }

    /// True for `Int`, `Char` and `Bool` (the types with integer values).
    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Char | Type::Bool)
    }
    /// True for integer and real types.
    pub fn is_arithmetic(&self) -> bool {
        self.is_integer() || matches!(self, Type::Real(_))
    }
    /// True for arithmetic and pointer types (those C allows in a condition).
    pub fn is_scalar(&self) -> bool {
        self.is_arithmetic() || matches!(self, Type::Pointer(_))
    }
    /// The pointee of a pointer or the element of an array.
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::Pointer(t) | Type::Array(t, _) => Some(t),
            _ => None,
        }
    }
}

/// A field of a struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Field name.
    pub name: String,
    /// Field type (array extents are constant).
    pub ty: Type,
}

/// Whether a [`StructDef`] is a `struct` (fields one after the other) or a
/// `union` (members sharing storage).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AggregateKind {
    /// `struct`: each field has its own storage.
    #[default]
    Struct,
    /// `union`: every member starts at offset 0. The engine lets a program read
    /// the member it last wrote; reading another one is refused at run time.
    Union,
}

/// A struct (or union) definition. Fields are numbered in declaration order;
/// pointers into structs navigate by field index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDef {
    /// This struct's id.
    pub id: StructId,
    /// `struct` or `union`.
    pub kind: AggregateKind,
    /// The tag, or the typedef name for anonymous structs.
    pub name: String,
    /// The fields in declaration order.
    pub fields: Vec<Field>,
    /// Where it was defined.
    pub span: Span,
}

impl StructDef {
    /// Index of the field with this name.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// True for a `union`.
    pub fn is_union(&self) -> bool {
        self.kind == AggregateKind::Union
    }

    /// `struct` or `union`, as C spells it.
    pub fn keyword(&self) -> &'static str {
        match self.kind {
            AggregateKind::Struct => "struct",
            AggregateKind::Union => "union",
        }
    }
}
