//! A program on prorata that uses a library written against Rayon.
