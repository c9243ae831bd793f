//! The storages' script surface: `UntypedStorage` (with files and shared memory), the
//! legacy typed storages, and the Python buffers (`bytes`, `bytearray`, `array`) they are
//! read from.

pub mod buffers;
pub mod devices;
pub mod index;
pub mod type_conversion;
pub mod typed;
pub mod typed_value;
pub mod untyped;
