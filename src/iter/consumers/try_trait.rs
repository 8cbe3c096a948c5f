//! The `Try` bound of the `try_*` methods: something that either continues with an
//! output or stops with a residual. Implemented for `Option`, `Result` and
//! `ControlFlow`, like std's unstable `Try`. Sealed, as Rayon's is: users use it,
//! never implement it.

use std::convert::Infallible;
use std::ops::ControlFlow;

mod sealed {
    pub trait Sealed {}
    impl<T> Sealed for Option<T> {}
    impl<T, E> Sealed for Result<T, E> {}
    impl<B, C> Sealed for std::ops::ControlFlow<B, C> {}
}

/// A value that either goes on (`Output`) or stops early (`Residual`).
pub trait Try: sealed::Sealed {
    /// The value carried on when going on.
    type Output;
    /// What a stop carries (the error of a `Result`, nothing for an `Option`).
    type Residual;

    /// Wraps a value that goes on.
    fn from_output(output: Self::Output) -> Self;

    /// Wraps a stop.
    fn from_residual(residual: Self::Residual) -> Self;

    /// Says whether to go on or to stop.
    fn branch(self) -> ControlFlow<Self::Residual, Self::Output>;
}

impl<T> Try for Option<T> {
    type Output = T;
    type Residual = Option<Infallible>;

    fn from_output(output: T) -> Self {
        Some(output)
    }

    fn from_residual(_: Option<Infallible>) -> Self {
        None
    }

    fn branch(self) -> ControlFlow<Option<Infallible>, T> {
        match self {
            Some(output) => ControlFlow::Continue(output),
            None => ControlFlow::Break(None),
        }
    }
}

impl<T, E> Try for Result<T, E> {
    type Output = T;
    type Residual = Result<Infallible, E>;

    fn from_output(output: T) -> Self {
        Ok(output)
    }

    fn from_residual(residual: Result<Infallible, E>) -> Self {
        match residual {
            Err(error) => Err(error),
        }
    }

    fn branch(self) -> ControlFlow<Result<Infallible, E>, T> {
        match self {
            Ok(output) => ControlFlow::Continue(output),
            Err(error) => ControlFlow::Break(Err(error)),
        }
    }
}

impl<B, C> Try for ControlFlow<B, C> {
    type Output = C;
    type Residual = ControlFlow<B, Infallible>;

    fn from_output(output: C) -> Self {
        ControlFlow::Continue(output)
    }

    fn from_residual(residual: ControlFlow<B, Infallible>) -> Self {
        match residual {
            ControlFlow::Break(stop) => ControlFlow::Break(stop),
        }
    }

    fn branch(self) -> ControlFlow<ControlFlow<B, Infallible>, C> {
        match self {
            ControlFlow::Continue(output) => ControlFlow::Continue(output),
            ControlFlow::Break(stop) => ControlFlow::Break(ControlFlow::Break(stop)),
        }
    }
}

/// Turns the outcome of a `branch` back into the `Try` value.
pub(crate) fn from_control<R: Try>(control: ControlFlow<R::Residual, R::Output>) -> R {
    match control {
        ControlFlow::Continue(output) => R::from_output(output),
        ControlFlow::Break(residual) => R::from_residual(residual),
    }
}
