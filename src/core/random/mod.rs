//! PyTorch's CPU random streams: the generator and how each op consumes it.

pub mod binomial;
pub mod distributions;
pub mod fills;
pub mod generator;
pub mod mathfun;
pub mod mt19937;
pub mod multinomial;
pub mod ops;
pub mod poisson;
