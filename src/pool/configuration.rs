//! Rayon's deprecated `Configuration` and `initialize`, kept so that old programs that
//! use them compile after the rename: a `Configuration` is a [`ThreadPoolBuilder`]
//! under another name, whose errors come boxed.
#![allow(deprecated)]

use std::any::Any;
use std::error::Error;

use super::{ThreadPool, ThreadPoolBuilder};

/// The configuration of a pool, the way Rayon's first versions spelled it. Use
/// [`ThreadPoolBuilder`] instead.
///
/// ```
/// #![allow(deprecated)]
/// let pool = prorata::Configuration::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.current_num_threads(), 2);
/// ```
#[deprecated(note = "Use `ThreadPoolBuilder`")]
#[derive(Debug, Default)]
pub struct Configuration {
    builder: ThreadPoolBuilder,
}

impl Configuration {
    /// A configuration with every setting at its default.
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let _ = prorata::Configuration::new();
    /// ```
    pub fn new() -> Configuration {
        Configuration::default()
    }

    /// Builds a pool, as [`ThreadPoolBuilder::build`] does.
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let pool = prorata::Configuration::new().build().unwrap();
    /// assert_eq!(pool.install(|| 1), 1);
    /// ```
    pub fn build(self) -> Result<ThreadPool, Box<dyn Error + 'static>> {
        self.builder.build().map_err(Box::from)
    }

    /// As [`ThreadPoolBuilder::thread_name`].
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let pool = prorata::Configuration::new().thread_name(|i| format!("w{i}")).build().unwrap();
    /// # drop(pool);
    /// ```
    pub fn thread_name<F>(self, closure: F) -> Self
    where
        F: FnMut(usize) -> String + 'static,
    {
        self.map(|b| b.thread_name(closure))
    }

    /// As [`ThreadPoolBuilder::num_threads`].
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let _ = prorata::Configuration::new().num_threads(3);
    /// ```
    pub fn num_threads(self, num_threads: usize) -> Configuration {
        self.map(|b| b.num_threads(num_threads))
    }

    /// As [`ThreadPoolBuilder::panic_handler`].
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let _ = prorata::Configuration::new().panic_handler(|_| ());
    /// ```
    pub fn panic_handler<H>(self, panic_handler: H) -> Configuration
    where
        H: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    {
        self.map(|b| b.panic_handler(panic_handler))
    }

    /// As [`ThreadPoolBuilder::stack_size`].
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let _ = prorata::Configuration::new().stack_size(1 << 20);
    /// ```
    pub fn stack_size(self, stack_size: usize) -> Self {
        self.map(|b| b.stack_size(stack_size))
    }

    /// As [`ThreadPoolBuilder::start_handler`].
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let _ = prorata::Configuration::new().start_handler(|_| ());
    /// ```
    pub fn start_handler<H>(self, start_handler: H) -> Configuration
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.map(|b| b.start_handler(start_handler))
    }

    /// As [`ThreadPoolBuilder::exit_handler`].
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let _ = prorata::Configuration::new().exit_handler(|_| ());
    /// ```
    pub fn exit_handler<H>(self, exit_handler: H) -> Configuration
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.map(|b| b.exit_handler(exit_handler))
    }

    /// As [`ThreadPoolBuilder::breadth_first`].
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let _ = prorata::Configuration::new().breadth_first();
    /// ```
    pub fn breadth_first(self) -> Self {
        self.map(|b| b.breadth_first())
    }

    fn map(self, f: impl FnOnce(ThreadPoolBuilder) -> ThreadPoolBuilder) -> Self {
        Configuration {
            builder: f(self.builder),
        }
    }
}

/// Builds the global pool from `config`, as [`ThreadPoolBuilder::build_global`] does.
///
/// ```
/// #![allow(deprecated)]
/// // The global pool can be built once; a second time is an error.
/// let first = prorata::initialize(prorata::Configuration::new());
/// assert!(prorata::initialize(prorata::Configuration::new()).is_err());
/// # drop(first);
/// ```
#[deprecated(note = "use `ThreadPoolBuilder::build_global`")]
pub fn initialize(config: Configuration) -> Result<(), Box<dyn Error>> {
    config.builder.build_global().map_err(Box::from)
}

impl ThreadPool {
    /// Builds a pool from a [`Configuration`], as Rayon's first versions did. Use
    /// [`ThreadPoolBuilder::build`] instead.
    ///
    /// ```
    /// #![allow(deprecated)]
    /// let pool = prorata::ThreadPool::new(prorata::Configuration::new().num_threads(2)).unwrap();
    /// assert_eq!(pool.current_num_threads(), 2);
    /// ```
    #[deprecated(note = "Use `ThreadPoolBuilder::build`")]
    pub fn new(configuration: Configuration) -> Result<ThreadPool, Box<dyn Error>> {
        configuration.build()
    }
}
