//! Helpers shared by the test modules (`kernel_client.rs` is included by path where it is
//! used, as the Jupyter benchmark shares it too).

pub mod session;
