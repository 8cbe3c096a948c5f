//! Which element types the sorts know to hold no interior mutability: types
//! whose bytes cannot change while the sort holds only shared references to
//! them, so that a copy of an element taken before the comparator looks at it
//! stays equal to the element.
//!
//! The short merges ([`super::par_merge::merge_halves_into`]) copy each element
//! of such a type as soon as they choose it, where it is one word; otherwise
//! they choose every element before they copy any, so that what a comparator
//! changes through a shared reference (a `Cell`, an atomic) stays in the
//! element, as std's sorts promise. std tells the two kinds apart with a
//! marker trait of its own (`Freeze`) that stable Rust does not offer to other
//! crates, and generic code cannot ask whether a type is `Copy` either. So the
//! sorts recognise the commonest frozen types by name
//! ([`std::any::type_name`]): the primitive numbers, `char` and `bool`, pairs
//! of them, arrays of 2, 4, 8 and 16 of them, `String`, and references of
//! every kind (the comparator may change what a reference points to, never
//! the reference, which is what the sort copies). Every test is a comparison
//! of constant strings, which the compiler folds: a sort compiles only the
//! path its element type takes.
//!
//! A name is no proof of a type, so only names that no other type can carry
//! are listed: a type defined in a crate is named with its path
//! (`my_crate::Key`), never bare like a primitive, a pair of them or an array
//! of them, and `alloc::string::String` is std's. If the compiler wrote names
//! differently, the sorts would lose the faster path for these types and keep
//! the careful one; a unit test checks the names.

/// Defines [`is_frozen_name`] for the primitive names given: each alone, pairs
/// of any two, and arrays of them.
macro_rules! frozen_names {
    ($($p:literal),* $(,)?) => {
        frozen_names! {@pairs [$($p),*] [$($p),*]}
    };
    (@pairs [$($a:literal),*] $all:tt) => {
        /// Whether `name` is the name of a type listed in the module's
        /// documentation.
        #[inline(always)]
        fn is_frozen_name(name: &str) -> bool {
            name.starts_with('&')
                || matches!(name, "alloc::string::String" $(| $a)*)
                || matches!(name, $(concat!("[", $a, "; 2]")
                    | concat!("[", $a, "; 4]")
                    | concat!("[", $a, "; 8]")
                    | concat!("[", $a, "; 16]"))|*)
                || $(frozen_names!(@pairs_from $a $all, name))||*
        }
    };
    (@pairs_from $a:literal [$($b:literal),*], $name:ident) => {
        matches!($name, $(concat!("(", $a, ", ", $b, ")"))|*)
    };
}

frozen_names!(
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
    "f64", "char", "bool",
);

/// Whether the sorts know that `T` holds no interior mutability (the types the
/// module's documentation lists); `false` for every other type, frozen or not.
#[inline(always)]
pub(super) fn is_frozen<T>() -> bool {
    is_frozen_name(std::any::type_name::<T>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicU64;

    /// A type of the crate's own, frozen but not recognised.
    #[allow(dead_code)]
    struct Key(u64);

    /// The types listed are recognised (a check that the compiler still names
    /// them as the list expects), and none that holds a cell, an atomic or a
    /// lock is.
    #[test]
    fn recognises_the_listed_types_and_no_others() {
        assert!(is_frozen::<u64>());
        assert!(is_frozen::<i8>());
        assert!(is_frozen::<f64>());
        assert!(is_frozen::<char>());
        assert!(is_frozen::<(u32, u32)>());
        assert!(is_frozen::<(u64, i128)>());
        assert!(is_frozen::<[u64; 8]>());
        assert!(is_frozen::<[u8; 16]>());
        assert!(is_frozen::<String>());
        assert!(is_frozen::<&str>());
        assert!(is_frozen::<&Cell<u64>>());
        assert!(is_frozen::<&mut [u8]>());

        assert!(!is_frozen::<Cell<u64>>());
        assert!(!is_frozen::<AtomicU64>());
        assert!(!is_frozen::<Mutex<u64>>());
        assert!(!is_frozen::<(u32, Cell<u32>)>());
        assert!(!is_frozen::<(u32, AtomicU64)>());
        assert!(!is_frozen::<[Cell<u8>; 4]>());
        assert!(!is_frozen::<Option<Cell<u64>>>());
        assert!(!is_frozen::<Key>());
        assert!(!is_frozen::<(u32, (u32, u32))>());
        assert!(!is_frozen::<[u64; 3]>());
    }
}
