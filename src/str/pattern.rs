//! The patterns the string methods accept: one `char`, any of several `char`s, or a
//! `char` predicate. Each matches exactly one `char` at a time, which is what lets a
//! string be cut at any match (or any char boundary) and processed piece by piece.

/// What [`par_split`](super::ParallelString::par_split) and friends accept as a
/// pattern: `char`, `&[char]`, `[char; N]`, `&[char; N]`, or a closure
/// `Fn(char) -> bool`. Sealed: it cannot be implemented outside this crate.
///
/// ```
/// use prorata::prelude::*;
/// fn count<P: prorata::str::Pattern>(s: &str, p: P) -> usize {
///     let n = std::sync::atomic::AtomicUsize::new(0);
///     s.par_matches(p).for_each(|_| {
///         n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
///     });
///     n.into_inner()
/// }
/// assert_eq!(count("a-b_c", ['-', '_']), 2);
/// assert_eq!(count("a-b_c", char::is_alphabetic), 3);
/// ```
pub trait Pattern: sealed::MatchChar + Sync + Send {}

pub(super) mod sealed {
    /// The one operation the string producers need from a pattern.
    pub trait MatchChar {
        /// True when `c` matches.
        fn is_match(&self, c: char) -> bool;

        /// The pattern as one `char`, when it is one: std searches those fastest.
        #[inline]
        fn as_char(&self) -> Option<char> {
            None
        }

        /// The pattern as a set of chars, when it is one: those can be searched
        /// byte by byte.
        #[inline]
        fn char_set(&self) -> Option<&[char]> {
            None
        }
    }
}

use sealed::MatchChar;

impl MatchChar for char {
    #[inline]
    fn is_match(&self, c: char) -> bool {
        *self == c
    }

    #[inline]
    fn as_char(&self) -> Option<char> {
        Some(*self)
    }
}
impl Pattern for char {}

impl MatchChar for &[char] {
    #[inline]
    fn is_match(&self, c: char) -> bool {
        self.contains(&c)
    }

    #[inline]
    fn char_set(&self) -> Option<&[char]> {
        Some(&self[..])
    }
}
impl Pattern for &[char] {}

impl<const N: usize> MatchChar for [char; N] {
    #[inline]
    fn is_match(&self, c: char) -> bool {
        self.contains(&c)
    }

    #[inline]
    fn char_set(&self) -> Option<&[char]> {
        Some(&self[..])
    }
}
impl<const N: usize> Pattern for [char; N] {}

impl<const N: usize> MatchChar for &[char; N] {
    #[inline]
    fn is_match(&self, c: char) -> bool {
        self.contains(&c)
    }

    #[inline]
    fn char_set(&self) -> Option<&[char]> {
        Some(&self[..])
    }
}
impl<const N: usize> Pattern for &[char; N] {}

impl<F: Fn(char) -> bool> MatchChar for F {
    #[inline]
    fn is_match(&self, c: char) -> bool {
        self(c)
    }
}
impl<F: Fn(char) -> bool + Sync + Send> Pattern for F {}

/// Expands `$body` with `$pat` bound to the producer's pattern in the form std searches
/// fastest: a plain `char` (memchr-based) when it is one, a predicate otherwise.
macro_rules! with_std_pattern {
    ($pattern:expr, |$pat:ident| $body:expr) => {
        match $pattern.as_char() {
            Some($pat) => $body,
            None => {
                let $pat = |c: char| $pattern.is_match(c);
                $body
            }
        }
    };
}

pub(super) use with_std_pattern;
