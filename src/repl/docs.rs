//! One line of prose per name a script can call.

/// The doc of `name`.
pub fn doc(name: &str) -> Option<&'static str> {
    DOCS.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// Docs by name, sorted.
pub const DOCS: &[(&str, &str)] = &[
    (
        "BFloat16Storage",
        "A legacy typed storage of bfloat16 elements: `torch::BFloat16Storage(n)` or from a list.",
    ),
    ("BoolStorage", "A legacy typed storage of bool elements."),
    ("ByteStorage", "A legacy typed storage of uint8 elements."),
    ("CharStorage", "A legacy typed storage of int8 elements."),
    (
        "ComplexDoubleStorage",
        "A legacy typed storage of complex128 elements.",
    ),
    (
        "ComplexFloatStorage",
        "A legacy typed storage of complex64 elements.",
    ),
    (
        "DoubleStorage",
        "A legacy typed storage of float64 elements.",
    ),
    (
        "FloatStorage",
        "A legacy typed storage of float32 elements.",
    ),
    (
        "H",
        "The conjugate transpose of a matrix (a view for real dtypes).",
    ),
    ("HalfStorage", "A legacy typed storage of float16 elements."),
    ("IntStorage", "A legacy typed storage of int32 elements."),
    ("LongStorage", "A legacy typed storage of int64 elements."),
    ("ShortStorage", "A legacy typed storage of int16 elements."),
    (
        "Size",
        "`torch::Size([2, 3])`: a shape, printed as `torch.Size([2, 3])`.",
    ),
    (
        "T",
        "The dimensions reversed (a view); deprecated by PyTorch for other than 2-d tensors.",
    ),
    (
        "UntypedStorage",
        "`torch::UntypedStorage(n)`: n bytes of storage, zero-filled; or from a list of bytes.",
    ),
    (
        "UntypedStorage::from_buffer",
        "A new storage copied from a buffer's bytes (`#{dtype: ...}` reads them as that dtype).",
    ),
    (
        "UntypedStorage::from_file",
        "Maps a file as a storage: `(filename, shared, nbytes)`; shared maps write through.",
    ),
    (
        "abs",
        "Absolute values (magnitudes for complex, as a real dtype).",
    ),
    (
        "add",
        "`a + b * alpha`, broadcasting, with PyTorch's type promotion.",
    ),
    (
        "add_",
        "In place `a += b * alpha`; the result type must cast back to `a`'s dtype.",
    ),
    (
        "adjoint",
        "The conjugate transpose of the last two dimensions (a view).",
    ),
    (
        "all",
        "True when every element is nonzero (all, or along `dim`); uint8 stays uint8.",
    ),
    ("allclose", "True when `isclose` holds everywhere."),
    (
        "any",
        "True when some element is nonzero (all, or along `dim`); uint8 stays uint8.",
    ),
    (
        "arange",
        "`arange(end)`, `arange(start, end, step)`: evenly spaced values; int64 for integer bounds.",
    ),
    (
        "argmax",
        "The (flat, or along `dim`) index of the first largest element.",
    ),
    (
        "argmin",
        "The (flat, or along `dim`) index of the first smallest element.",
    ),
    (
        "as_strided",
        "A view with the given sizes, strides and storage offset, over the same storage.",
    ),
    (
        "as_strided_",
        "Sets this tensor's sizes, strides and offset in place.",
    ),
    (
        "backward",
        "Computes the gradient of a scalar result into the `.grad` of the leaves that require it.",
    ),
    (
        "bernoulli",
        "Draws 0 or 1 per element with the probability given by the tensor's values (or `p`).",
    ),
    ("bfloat16", "A copy (or the same tensor) as bfloat16."),
    (
        "bool",
        "A copy (or the same tensor) as bool; for storages, the storage read as bools.",
    ),
    ("byte", "A copy (or the same tensor) as uint8."),
    (
        "byteswap",
        "Reverses the bytes of each element of a storage in place, for a dtype's element size.",
    ),
    ("cdouble", "A copy (or the same tensor) as complex128."),
    ("cfloat", "A copy (or the same tensor) as complex64."),
    ("chalf", "A copy (or the same tensor) as complex32."),
    ("char", "A copy (or the same tensor) as int8."),
    (
        "chunk",
        "Splits into `chunks` views along `dim`, the last possibly smaller.",
    ),
    (
        "clamp",
        "Limits each element to `[min, max]` (either may be `()`); the result dtype promotes.",
    ),
    (
        "clone",
        "A copy with its own storage; keeps the layout for dense tensors (memory_format=preserve).",
    ),
    (
        "complex",
        "`torch::complex(real, imag)`: a complex tensor from two float tensors.",
    ),
    ("complex_double", "The storage read as complex128 elements."),
    ("complex_float", "The storage read as complex64 elements."),
    (
        "contiguous",
        "The tensor itself if contiguous, else a contiguous copy.",
    ),
    (
        "copy_",
        "Copies `src` into this tensor elementwise (broadcasting, casting); returns this tensor.",
    ),
    ("cos", "Cosines (radians)."),
    (
        "cpu",
        "The tensor or storage itself (everything is on the CPU).",
    ),
    ("cuda", "Raises as PyTorch does on a machine without a GPU."),
    (
        "data",
        "The tensor without autograd history, sharing its storage.",
    ),
    (
        "data_ptr",
        "The address of the first element (storage address plus offset in bytes).",
    ),
    (
        "detach",
        "A view of the same storage that does not require grad.",
    ),
    ("device", "The tensor's or storage's device (`cpu`)."),
    (
        "diagonal",
        "A view of a diagonal: `offset`, `dim1`, `dim2`.",
    ),
    ("dim", "The number of dimensions."),
    (
        "div",
        "True division `a / b`; `rounding_mode: \"trunc\"` or `\"floor\"` rounds.",
    ),
    ("div_", "In-place division."),
    ("double", "A copy (or the same tensor) as float64."),
    ("dsplit", "Splits along the third dimension into views."),
    ("dtype", "The element type (`torch.float32`, ...)."),
    ("element_size", "Bytes per element."),
    (
        "empty",
        "A tensor of the given size; tensh fills new memory with zeros.",
    ),
    (
        "empty_like",
        "An uninitialised (zeroed in tensh) tensor shaped like the input.",
    ),
    (
        "empty_strided",
        "A new tensor with the given sizes and strides, its storage just big enough.",
    ),
    ("eq", "Elementwise `==`, a bool tensor."),
    (
        "equal",
        "True when both tensors have the same size and elements.",
    ),
    ("exp", "e to the power of each element."),
    (
        "expand",
        "A view repeating size-1 dimensions (stride 0); -1 keeps a size.",
    ),
    ("expand_as", "`expand` to another tensor's size."),
    ("eye", "An identity matrix `(n)` or `(n, m)`."),
    ("filename", "The file a mapped storage came from, or `()`."),
    (
        "fill_",
        "Writes one value into every element (or every byte of a storage).",
    ),
    (
        "flatten",
        "Flattens `start_dim..=end_dim` into one: a view when the layout allows, else a copy.",
    ),
    ("float", "A copy (or the same tensor) as float32."),
    (
        "float8_e4m3fn",
        "The storage read as float8_e4m3fn elements.",
    ),
    (
        "float8_e4m3fnuz",
        "The storage read as float8_e4m3fnuz elements.",
    ),
    ("float8_e5m2", "The storage read as float8_e5m2 elements."),
    (
        "float8_e5m2fnuz",
        "The storage read as float8_e5m2fnuz elements.",
    ),
    (
        "floor_divide",
        "`x // y`: division rounded toward negative infinity.",
    ),
    (
        "from_file",
        "`torch::from_file(filename, shared, size, #{dtype})`: a tensor over a mapped file.",
    ),
    (
        "frombuffer",
        "A tensor sharing a buffer's memory: `#{dtype, count, offset}`.",
    ),
    (
        "full",
        "A tensor of the given size filled with a value; the dtype follows the value.",
    ),
    ("full_like", "`full` shaped like the input."),
    ("ge", "Elementwise `>=`, a bool tensor."),
    (
        "get_default_dtype",
        "The dtype of new float tensors (float32 unless changed).",
    ),
    ("get_device", "-1 for CPU tensors."),
    (
        "get_rng_state",
        "The generator's state as a uint8 tensor of 5056 bytes.",
    ),
    ("grad", "The accumulated gradient of a leaf, or `()`."),
    ("gt", "Elementwise `>`, a bool tensor."),
    ("half", "A copy (or the same tensor) as float16."),
    ("hpu", "Raises as PyTorch does without an HPU."),
    (
        "hsplit",
        "Splits along the second dimension (the first for 1-d) into views.",
    ),
    (
        "imag",
        "The imaginary parts of a complex tensor, as a view.",
    ),
    (
        "initial_seed",
        "The seed the generator was last seeded with.",
    ),
    ("int", "A copy (or the same tensor) as int32."),
    ("is_complex", "True for complex dtypes."),
    (
        "is_contiguous",
        "True when the strides are those of a row-major tensor of this size.",
    ),
    ("is_cuda", "False: tensh tensors live on the CPU."),
    ("is_floating_point", "True for floating dtypes."),
    ("is_hpu", "False."),
    ("is_leaf", "True for tensors not produced by a recorded op."),
    ("is_pinned", "False: tensh has no pinned memory."),
    (
        "is_shared",
        "True for a storage in shared memory or a shared file map.",
    ),
    ("is_signed", "True for signed dtypes."),
    ("is_sparse", "False: tensh storages are dense."),
    ("is_storage", "True for storages."),
    ("is_tensor", "True for tensors."),
    (
        "isclose",
        "Elementwise `|a - b| <= atol + rtol * |b|` (`rtol`, `atol`, `equal_nan`), a bool tensor.",
    ),
    ("item", "The value of a one-element tensor as a number."),
    ("itemsize", "Bytes per element."),
    ("le", "Elementwise `<=`, a bool tensor."),
    (
        "len",
        "The length of the first dimension (or of a storage or buffer).",
    ),
    (
        "linspace",
        "`steps` values from `start` to `end` inclusive.",
    ),
    ("log", "Natural logarithms (`-inf` at 0, NaN below)."),
    ("long", "A copy (or the same tensor) as int64."),
    ("lt", "Elementwise `<`, a bool tensor."),
    ("mH", "The conjugate transpose of the last two dimensions."),
    ("mT", "The transpose of the last two dimensions (a view)."),
    (
        "manual_seed",
        "Seeds the global generator; the same seed gives PyTorch's numbers.",
    ),
    (
        "matmul",
        "Matrix product: 1-d dot, 2-d, and batched with broadcasting.",
    ),
    (
        "max",
        "The largest element; with `dim`, `[values, indices]` along it (`keepdim`). NaN wins.",
    ),
    ("mean", "The mean of all elements (floating dtypes)."),
    (
        "min",
        "The smallest element; with `dim`, `[values, indices]` along it (`keepdim`). NaN wins.",
    ),
    ("moveaxis", "Same as movedim."),
    ("movedim", "Moves dimensions to new places (a view)."),
    ("mps", "Raises as PyTorch does without MPS."),
    (
        "mul",
        "Elementwise product with broadcasting and promotion.",
    ),
    ("mul_", "In-place product."),
    (
        "narrow",
        "A view of `length` entries from `start` along `dim`.",
    ),
    ("nbytes", "Bytes of the storage (or the tensor's elements)."),
    ("ndim", "The number of dimensions."),
    ("ndimension", "The number of dimensions."),
    ("ne", "Elementwise `!=`, a bool tensor."),
    ("neg", "`-a`."),
    ("nelement", "The number of elements."),
    ("new", "A new empty storage of the same kind."),
    (
        "normal",
        "`torch::normal(mean, std, size)`: normally distributed values.",
    ),
    (
        "normal_",
        "Fills with normal values in place (`mean`, `std`).",
    ),
    ("numel", "The number of elements."),
    ("ones", "A tensor of ones."),
    ("ones_like", "Ones shaped like the input."),
    ("permute", "Reorders the dimensions (a view)."),
    (
        "pickle_storage_type",
        "The storage's type name for pickling (`float`, ...).",
    ),
    (
        "pin_memory",
        "Raises as PyTorch does without an accelerator.",
    ),
    (
        "pow",
        "`x ** e` elementwise, with broadcasting and promotion; integers refuse negative powers.",
    ),
    (
        "prod",
        "The product of all elements, or along `dim` (`keepdim`); int64 for integers.",
    ),
    ("promote_types", "The dtype two dtypes promote to."),
    ("rand", "Uniform values in [0, 1)."),
    ("rand_like", "`rand` shaped like the input."),
    (
        "randint",
        "Integers in [low, high): `randint(high, size)` or `randint(low, high, size)`.",
    ),
    ("randint_like", "`randint` shaped like the input."),
    ("randn", "Standard normal values."),
    ("randn_like", "`randn` shaped like the input."),
    (
        "random_",
        "Fills with integers from the generator (`from`, `to`).",
    ),
    ("randperm", "A random permutation of 0..n."),
    (
        "real",
        "The real parts (a view for complex tensors; the tensor itself for real ones).",
    ),
    (
        "remainder",
        "`x % y` with the sign of the divisor, as Python's `%`.",
    ),
    (
        "requires_grad",
        "Whether autograd records ops on this tensor (settable on leaves).",
    ),
    (
        "requires_grad_",
        "Sets requires_grad in place; only floating-point tensors.",
    ),
    (
        "reshape",
        "A view when the layout allows, else a copy, with the new shape (-1 inferred).",
    ),
    ("reshape_as", "`reshape` to another tensor's shape."),
    ("resizable", "True when the storage can be resized."),
    (
        "resize_",
        "Resizes a storage (bytes) or a tensor (making it contiguous of that size), growing its storage as needed.",
    ),
    (
        "seed",
        "Seeds the generator from the clock; returns the seed.",
    ),
    ("select", "Indexes one entry of a dimension away (a view)."),
    (
        "set_",
        "Makes this tensor a view of another storage (or tensor) with given offset, size, stride.",
    ),
    ("set_default_dtype", "Sets the dtype of new float tensors."),
    (
        "set_printoptions",
        "PyTorch's print options: precision, threshold, edgeitems, linewidth, profile, sci_mode.",
    ),
    ("set_rng_state", "Restores a state from `get_rng_state()`."),
    ("shape", "The size as `torch.Size`."),
    ("share_memory_", "Moves the storage into shared memory."),
    ("short", "A copy (or the same tensor) as int16."),
    ("sin", "Sines (radians)."),
    (
        "size",
        "The size, or one dimension's size with `size(dim)`.",
    ),
    (
        "split",
        "Splits into views of `split_size` along `dim` (or of the listed sizes).",
    ),
    ("split_with_sizes", "Splits into views of the listed sizes."),
    (
        "sqrt",
        "Square roots; integers compute in the default float dtype.",
    ),
    (
        "squeeze",
        "Removes size-1 dimensions (all, or the given ones): a view.",
    ),
    (
        "storage",
        "The typed storage (deprecated by PyTorch: use untyped_storage).",
    ),
    (
        "storage_offset",
        "The offset of the first element in the storage, in elements.",
    ),
    (
        "stride",
        "The strides in elements, or one dimension's stride.",
    ),
    ("sub", "`a - b * alpha`."),
    ("sub_", "In-place subtraction."),
    (
        "sum",
        "The sum of all elements (int64 for integers and bools).",
    ),
    ("swapaxes", "Swaps two dimensions (a view)."),
    ("swapdims", "Swaps two dimensions (a view)."),
    (
        "t",
        "Transposes a 2-d tensor (a view); 0-d and 1-d tensors are returned as they are.",
    ),
    (
        "tensor",
        "A tensor copied from a nested list of numbers; its dtype is inferred or given.",
    ),
    (
        "tensor_split",
        "Splits into `n` nearly equal views, or at the given indices.",
    ),
    (
        "to",
        "Converts dtype (and device, only `cpu`); the same tensor when nothing changes.",
    ),
    ("tolist", "The elements as nested arrays of numbers."),
    ("transpose", "Swaps two dimensions (a view)."),
    (
        "type",
        "The type name (`torch.FloatTensor`), or a conversion given a dtype or name.",
    ),
    ("uint16", "The storage read as uint16 elements."),
    ("unbind", "Views of each entry along `dim`."),
    ("unflatten", "Splits one dimension into several (a view)."),
    (
        "unfold",
        "Sliding windows of `size` every `step` along `dim` (a view).",
    ),
    (
        "uniform_",
        "Fills with uniform values in [from, to) in place.",
    ),
    ("unsqueeze", "Inserts a size-1 dimension (a view)."),
    ("untyped", "The untyped storage under a typed storage."),
    (
        "untyped_storage",
        "The untyped storage (bytes) the tensor views.",
    ),
    (
        "view",
        "A view with a new shape (strides must allow it), or the same bytes as another dtype.",
    ),
    ("view_as", "`view` to another tensor's shape."),
    (
        "view_as_complex",
        "Reads pairs of floats as complex numbers (a view).",
    ),
    (
        "view_as_real",
        "Reads complex numbers as pairs of floats (a view).",
    ),
    ("vsplit", "Splits along the first dimension into views."),
    (
        "where",
        "`torch::where(cond, x, y)`: x where the bool tensor cond is true, else y.",
    ),
    ("zero_", "Fills with zeros in place."),
    ("zeros", "A tensor of zeros."),
    ("zeros_like", "Zeros shaped like the input."),
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::DOCS;
    use crate::repl::catalog::Catalog;
    use crate::script::engine::{new_engine, receiver_types};

    /// Every name a script can call has a doc, and every doc names something callable.
    #[test]
    fn docs_match_the_registrations() {
        let c = Catalog::from_engine(&new_engine(), &receiver_types());
        let mut names: BTreeSet<String> = c.functions.keys().cloned().collect();
        for m in c.methods.values() {
            names.extend(m.keys().cloned());
        }
        for p in c.properties.values() {
            names.extend(p.iter().cloned());
        }
        let documented: BTreeSet<String> = DOCS.iter().map(|(n, _)| n.to_string()).collect();
        let undocumented: Vec<_> = names.difference(&documented).collect();
        let stale: Vec<_> = documented.difference(&names).collect();
        assert!(undocumented.is_empty(), "no doc for {undocumented:?}");
        assert!(stale.is_empty(), "docs for unregistered {stale:?}");
    }

    #[test]
    fn docs_are_sorted_and_unique() {
        assert!(DOCS.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
