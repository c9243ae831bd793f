//! PyTorch's reprs as pure functions returning `String`: number text, print options, the
//! element formatter, tensors and storages.

pub mod explain;
pub mod formatter;
pub mod number;
pub mod options;
pub mod spelling;
pub mod storage_repr;
pub mod tensor_repr;
pub mod why;
