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
//! crates. So the sorts recognise the commonest frozen types by identity: the
//! primitive numbers, `char` and `bool`, pairs of them, and arrays of 2, 4 and
//! 8 of them. Memory safety rests on this test (a type taken for frozen that
//! holds a `Cell<Option<Box<_>>>` would be dropped twice), so it compares
//! [`TypeId`]s, which the compiler guarantees to be equal only for the same
//! type, never names: [`std::any::type_name`] is neither unique nor stable,
//! and any crate may name its own type `alloc::string::String`.
//!
//! `TypeId::of` asks for `T: 'static`, which the sorts do not (a slice of
//! `&str` may be sorted). [`erased_type_id`] reads the id with `T`'s lifetimes
//! erased; every type it is compared with here has no lifetime at all, so
//! equality still means "the same type". Each test compares constants, which
//! the compiler folds: a sort compiles only the path its element type takes.

use std::any::TypeId;
use std::marker::PhantomData;

/// Reports the [`TypeId`] of the type it is implemented for, behind a
/// reference that may be cast to `'static`.
trait IdOf {
    /// The `TypeId` of `T` for `PhantomData<T>`; callable only on a `'static`
    /// receiver, which [`erased_type_id`] makes one.
    fn id(&self) -> TypeId
    where
        Self: 'static;
}

impl<T: ?Sized> IdOf for PhantomData<T> {
    fn id(&self) -> TypeId
    where
        Self: 'static,
    {
        TypeId::of::<T>()
    }
}

/// The [`TypeId`] of `T` with its lifetimes erased: `T` and `T` with every
/// lifetime replaced by `'static` get the same id. Equal to
/// `TypeId::of::<U>()` for a `U` without lifetimes only when `T` is `U`.
#[inline(always)]
fn erased_type_id<T: ?Sized>() -> TypeId {
    let marker = PhantomData::<T>;
    let short: &dyn IdOf = &marker;
    // SAFETY: only the trait object's lifetime bound changes; the pointer
    // and its vtable stay as they are. `id` reads no data through the
    // reference and returns a value that borrows nothing, so nothing of `T`
    // (a zero-sized marker here) outlives its lifetimes. Lifetimes play no
    // part in code generation, so the vtable's `id` is `T`'s own.
    let long: &(dyn IdOf + 'static) = unsafe { std::mem::transmute(short) };
    long.id()
}

/// Defines [`is_frozen`] for the primitive types given: each alone, pairs of
/// any two, and arrays of 2, 4 and 8 of one.
macro_rules! frozen_types {
    ($($p:ty),* $(,)?) => {
        frozen_types! {@pairs [$($p),*] [$($p),*]}
    };
    (@pairs [$($a:ty),*] $all:tt) => {
        /// Whether the sorts know that `T` holds no interior mutability (the
        /// types the module's documentation lists); `false` for every other
        /// type, frozen or not.
        #[inline(always)]
        pub(super) fn is_frozen<T>() -> bool {
            let id = erased_type_id::<T>();
            $(id == TypeId::of::<$a>()
                || id == TypeId::of::<[$a; 2]>()
                || id == TypeId::of::<[$a; 4]>()
                || id == TypeId::of::<[$a; 8]>()
                || frozen_types!(@pairs_from id, $a, $all))||*
        }
    };
    (@pairs_from $id:ident, $a:ty, [$($b:ty),*]) => {
        false $(|| $id == TypeId::of::<($a, $b)>())*
    };
}

frozen_types!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64, char, bool,
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicU64;

    /// A type of the crate's own, frozen but not recognised.
    #[allow(dead_code)]
    struct Key(u64);

    /// Types named as std's are: a crate may call itself `alloc` or `core`.
    mod alloc {
        pub mod string {
            /// One word holding a cell, named `alloc::string::String`.
            #[allow(dead_code)]
            pub struct String(pub std::cell::Cell<Option<Box<u32>>>);
        }
    }

    /// The types listed are recognised, and none that holds a cell, an atomic
    /// or a lock is, whatever it is named; lifetimes do not matter.
    #[test]
    fn recognises_the_listed_types_and_no_others() {
        assert!(is_frozen::<u64>());
        assert!(is_frozen::<i8>());
        assert!(is_frozen::<f64>());
        assert!(is_frozen::<char>());
        assert!(is_frozen::<(u32, u32)>());
        assert!(is_frozen::<(u64, i128)>());
        assert!(is_frozen::<[u64; 8]>());
        assert!(is_frozen::<[u8; 4]>());

        assert!(!is_frozen::<Cell<u64>>());
        assert!(!is_frozen::<AtomicU64>());
        assert!(!is_frozen::<Mutex<u64>>());
        assert!(!is_frozen::<(u32, Cell<u32>)>());
        assert!(!is_frozen::<(u32, AtomicU64)>());
        assert!(!is_frozen::<[Cell<u8>; 4]>());
        assert!(!is_frozen::<Option<Cell<u64>>>());
        assert!(!is_frozen::<Key>());
        assert!(!is_frozen::<alloc::string::String>());
        assert!(!is_frozen::<&Cell<u64>>());
        assert!(!is_frozen::<(u32, (u32, u32))>());
        assert!(!is_frozen::<[u64; 3]>());
    }

    /// The erased id of a type with lifetimes is the id of its `'static`
    /// version, and differs from every other type's.
    #[test]
    fn erased_ids_ignore_lifetimes_only() {
        fn id_of_borrowed(_: &str) -> TypeId {
            erased_type_id::<&str>()
        }
        let local = String::from("x");
        assert_eq!(id_of_borrowed(&local), TypeId::of::<&'static str>());
        assert_ne!(erased_type_id::<&str>(), TypeId::of::<&'static [u8]>());
        assert_eq!(erased_type_id::<u32>(), TypeId::of::<u32>());
        assert_ne!(erased_type_id::<u32>(), TypeId::of::<i32>());
    }
}
