//! The texts of the built-in library headers (`#include <stdio.h>` etc.).
//! Their function prototypes give the front end the argument types to check;
//! the functions and `extern const` objects they declare map to the model's
//! [`tass_model::api::LibraryFunction`] and
//! [`tass_model::api::LibraryConstant`] by name.

/// The text of a built-in header, by the name written between `<` and `>`.
pub fn builtin_header(name: &str) -> Option<&'static str> {
    Some(match name {
        "assert.h" => include_str!("headers/assert.h"),
        "errno.h" => include_str!("headers/errno.h"),
        "float.h" => include_str!("headers/float.h"),
        "limits.h" => include_str!("headers/limits.h"),
        "math.h" => include_str!("headers/math.h"),
        "mpi.h" => include_str!("headers/mpi.h"),
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
