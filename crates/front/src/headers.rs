//! The texts of the built-in library headers (`#include <stdio.h>` etc.).
//! Their function prototypes give the front end the argument types to check;
//! the functions and `extern const` objects they declare map to the model's
//! [`tass_model::api::LibraryFunction`] and
//! [`tass_model::api::LibraryConstant`] by name. `<mpi.h>` is not a file:
//! it is rendered from the model's description of the MPI library
//! ([`tass_model::api::mpi`]), so its prototypes and the engine's argument
//! positions cannot disagree.

use std::sync::OnceLock;

use tass_model::api::{mpi::MPI_FUNCTIONS, LibraryConstant};

/// The text of a built-in header, by the name written between `<` and `>`.
pub fn builtin_header(name: &str) -> Option<&'static str> {
    Some(match name {
        "assert.h" => include_str!("headers/assert.h"),
        "civlc.cvh" => include_str!("headers/civlc.cvh"),
        "errno.h" => include_str!("headers/errno.h"),
        "float.h" => include_str!("headers/float.h"),
        "limits.h" => include_str!("headers/limits.h"),
        "math.h" => include_str!("headers/math.h"),
        "mpi.h" => mpi_header(),
        "stdbool.h" => include_str!("headers/stdbool.h"),
        "stddef.h" => include_str!("headers/stddef.h"),
        "stdint.h" => include_str!("headers/stdint.h"),
        "stdio.h" => include_str!("headers/stdio.h"),
        "stdlib.h" => include_str!("headers/stdlib.h"),
        "string.h" => include_str!("headers/string.h"),
        "tass.h" => include_str!("headers/tass.h"),
        "time.h" => include_str!("headers/time.h"),
        "unistd.h" => include_str!("headers/unistd.h"),
        _ => return None,
    })
}

/// The names of all built-in headers.
pub const BUILTIN_HEADERS: &[&str] = &[
    "assert.h",
    "civlc.cvh",
    "errno.h",
    "float.h",
    "limits.h",
    "math.h",
    "mpi.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "tass.h",
    "time.h",
    "unistd.h",
];

/// The text of `<mpi.h>`: the handle types, the status struct, the constants
/// and the prototypes of the description.
fn mpi_header() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut text = String::from(
            "#ifndef __TASS_MPI_H\n#define __TASS_MPI_H\n\
             typedef __tass_MPI_Comm MPI_Comm;\n\
             typedef __tass_MPI_Request MPI_Request;\n\
             typedef __tass_MPI_Datatype MPI_Datatype;\n\
             typedef __tass_MPI_Op MPI_Op;\n\
             typedef __tass_MPI_Group MPI_Group;\n\
             typedef void (*__tass_MPI_User_function_pointer)(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);\n\
             typedef __tass_MPI_Win MPI_Win;\n\
             typedef int MPI_Info;\n\
             typedef struct MPI_Status { int MPI_SOURCE; int MPI_TAG; int MPI_ERROR; int tass_count; } MPI_Status;\n\
             typedef long MPI_Aint;\n\
             #define MPI_THREAD_SINGLE 0\n\
             #define MPI_THREAD_FUNNELED 1\n\
             #define MPI_THREAD_SERIALIZED 2\n\
             #define MPI_THREAD_MULTIPLE 3\n\
             #define MPI_MAX_PROCESSOR_NAME 256\n",
        );
        for c in LibraryConstant::ALL {
            if let Some(ty) = c.mpi_c_type() {
                // A pointer constant is a constant pointer: `MPI_Status *const`.
                let decl = match ty.strip_suffix(" *") {
                    Some(pointee) => format!("extern {pointee} *const {};\n", c.c_name()),
                    None => format!("extern const {ty} {};\n", c.c_name()),
                };
                text.push_str(&decl);
            }
        }
        for d in MPI_FUNCTIONS {
            text.push_str(&d.prototype());
            text.push('\n');
        }
        text.push_str("#endif\n");
        text
    })
}

#[cfg(test)]
mod tests {
    use tass_model::api::{LibraryConstant, LibraryFunction};

    /// Every MPI function and constant of the model is declared, once.
    #[test]
    fn mpi_h_declares_the_whole_library() {
        let text = super::mpi_header();
        for f in LibraryFunction::ALL.iter().filter(|f| f.is_mpi()) {
            let start = format!(" {}(", f.c_name());
            assert_eq!(text.matches(&start).count(), 1, "{}", f.c_name());
        }
        for c in LibraryConstant::ALL
            .iter()
            .filter(|c| c.mpi_c_type().is_some())
        {
            let decl = format!(" {};\n", c.c_name());
            assert_eq!(text.matches(&decl).count(), 1, "{}", c.c_name());
        }
        assert!(text.contains(
            "int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, \
             int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status);"
        ));
        assert!(text.contains("extern MPI_Status *const MPI_STATUS_IGNORE;"));
    }
}
