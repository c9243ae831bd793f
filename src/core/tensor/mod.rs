//! The tensor handle: a storage, a dtype and a layout, shared by every name bound to it.
//!
//! `Tensor` is `Rc<RefCell<…>>` because PyTorch tensors are objects: `set_`, `resize_` and
//! in-place ops must be seen through every variable that holds the same tensor. Views are new
//! handles over the same storage (`alias`), so they never copy.

pub mod grad_mode;
pub mod graph;
pub mod hooks;
pub mod record;
pub mod version;

use std::cell::RefCell;
use std::rc::Rc;

use super::dtype::DType;
use super::error::Result;
use super::layout::Layout;
use super::memory::storage::Storage;
pub use graph::GradState;

/// The byte range of elements `[offset, offset + numel)`. Within the storage once the layout
/// passed its bounds check, except for an empty tensor, whose offset may lie anywhere (the
/// callers then take an empty slice).
fn dense_range(l: &Layout, itemsize: usize) -> std::ops::Range<usize> {
    let start = l.offset.max(0) as usize * itemsize;
    start..start + l.numel().max(0) as usize * itemsize
}

/// The fields behind a tensor handle.
#[derive(Debug, Clone)]
pub struct TensorImpl {
    /// The bytes this tensor views.
    pub storage: Storage,
    /// Element type.
    pub dtype: DType,
    /// Geometry over the storage.
    pub layout: Layout,
    /// Autograd fields.
    pub grad: GradState,
    /// PyTorch's conjugate bit (complex dtypes only): the tensor's values are the
    /// conjugates of the stored ones. Readers resolve it; writers store conjugates.
    pub conj: bool,
    /// PyTorch's negative bit (floating dtypes only; set on `.imag` of a conjugate view):
    /// the tensor's values are the negations of the stored ones. Readers resolve it;
    /// writers store negations.
    pub neg: bool,
    /// In-place writes so far, shared with the tensor's views (`_version`).
    pub version: version::VersionCounter,
    /// PyTorch's wrapped-number mark: a 0-d tensor a `torch` function made of a Python
    /// number in a tensor's place (`torch.pow(2, t)`), which ops that have overloads for a
    /// number treat as the number (their result layouts and autograd nodes). Only the
    /// function's own stand-in for the number has it.
    pub wrapped_number: bool,
    /// PyTorch's `nn.Parameter` class: this handle was made by `Parameter(data)` (a
    /// detached alias of `data`). Results of ops on it are plain tensors; only the handle
    /// itself (returned by its in-place methods) stays a parameter.
    pub parameter: bool,
}

/// A handle that does not keep a tensor alive (`retain_grad`'s link from a graph node
/// back to its output).
#[derive(Debug, Clone)]
pub struct WeakTensor(std::rc::Weak<RefCell<TensorImpl>>);

impl WeakTensor {
    /// The tensor, if it is still alive.
    pub fn upgrade(&self) -> Option<Tensor> {
        self.0.upgrade().map(Tensor)
    }
}

/// A shared handle to a tensor; `clone()` gives another name for the same tensor.
#[derive(Debug, Clone)]
pub struct Tensor(Rc<RefCell<TensorImpl>>);

impl Tensor {
    /// A tensor over `storage` with this dtype and layout (callers check bounds).
    pub fn from_parts(storage: Storage, dtype: DType, layout: Layout) -> Tensor {
        Tensor(Rc::new(RefCell::new(TensorImpl {
            storage,
            dtype,
            layout,
            grad: GradState::default(),
            conj: false,
            neg: false,
            version: version::VersionCounter::default(),
            wrapped_number: false,
            parameter: false,
        })))
    }

    /// A new zero-filled contiguous tensor (sizes must be non-negative), or the allocation
    /// error for sizes too large.
    pub fn zeros(sizes: Vec<i64>, dtype: DType) -> crate::core::error::Result<Tensor> {
        let nbytes = crate::core::memory::alloc::contiguous_nbytes(&sizes, dtype.itemsize())?;
        let layout = Layout::contiguous(sizes);
        Ok(Tensor::from_parts(Storage::zeroed(nbytes)?, dtype, layout))
    }

    /// A view: a new handle over the same storage with another layout.
    pub fn alias(&self, layout: Layout) -> Tensor {
        let i = self.0.borrow();
        Tensor::aliasing(&i, i.dtype, (i.conj, i.neg), layout, GradState::default())
    }

    /// A view made by a view op: `alias`, marked as a view of the root of this tensor's
    /// chain of views, or of this tensor (`record::mark_views` says why), in one step.
    pub fn view_alias(&self, layout: Layout) -> Tensor {
        let i = self.0.borrow();
        let base = i.grad.base.clone().unwrap_or_else(|| self.clone());
        let grad = GradState {
            base: Some(base),
            view_made_without_grad: !grad_mode::is_enabled() || i.grad.view_made_without_grad,
            ..GradState::default()
        };
        Tensor::aliasing(&i, i.dtype, (i.conj, i.neg), layout, grad)
    }

    /// A new handle over `i`'s storage, sharing its version counter, with the conjugate and
    /// negative bits `bits`.
    fn aliasing(
        i: &TensorImpl,
        dtype: DType,
        (conj, neg): (bool, bool),
        layout: Layout,
        grad: GradState,
    ) -> Tensor {
        Tensor(Rc::new(RefCell::new(TensorImpl {
            storage: i.storage.clone(),
            dtype,
            layout,
            grad,
            conj,
            neg,
            version: i.version.clone(),
            wrapped_number: false,
            parameter: false,
        })))
    }

    /// Marks this 0-d tensor as a Python number a `torch` function wrapped
    /// (`TensorImpl::wrapped_number`).
    pub fn mark_wrapped_number(&self) {
        self.0.borrow_mut().wrapped_number = true;
    }

    /// `t.data = other`: this handle now views `other`'s storage with `other`'s dtype and
    /// layout (and its conjugate and negative bits), keeping its own autograd fields and
    /// version counter, as PyTorch's `set_data` does.
    pub fn set_data(&self, other: &Tensor) {
        if Rc::ptr_eq(&self.0, &other.0) {
            return;
        }
        let o = other.0.borrow();
        let mut i = self.0.borrow_mut();
        i.storage = o.storage.clone();
        i.dtype = o.dtype;
        i.layout = o.layout.clone();
        i.conj = o.conj;
        i.neg = o.neg;
    }

    /// Marks this handle as an `nn.Parameter` (`TensorImpl::parameter`).
    pub fn mark_parameter(&self) {
        self.0.borrow_mut().parameter = true;
    }

    /// Whether this handle is an `nn.Parameter`.
    pub fn is_parameter(&self) -> bool {
        self.0.borrow().parameter
    }

    /// Whether this is a Python number a `torch` function wrapped.
    pub fn is_wrapped_number(&self) -> bool {
        self.0.borrow().wrapped_number
    }

    /// Whether the conjugate bit is set (`is_conj()`).
    pub fn is_conj(&self) -> bool {
        self.0.borrow().conj
    }

    /// A view of the same elements with the conjugate bit flipped (`conj()` of a complex
    /// tensor); real tensors have no bit, so they are returned as they are.
    pub fn conj_view(&self) -> Tensor {
        if !self.dtype().is_complex() {
            return self.clone();
        }
        let out = self.alias(self.layout());
        out.0.borrow_mut().conj = !self.is_conj();
        out
    }

    /// Whether the negative bit is set (`is_neg()`).
    pub fn is_neg(&self) -> bool {
        self.0.borrow().neg
    }

    /// Sets the negative bit of this handle: only on a new view of floating elements
    /// (`.imag` of a conjugate view), before anyone else holds it.
    pub fn set_neg_bit(&self, neg: bool) {
        self.0.borrow_mut().neg = neg;
    }

    /// Whether the values are the stored ones: neither the conjugate nor the negative bit is
    /// set. Kernels that read or write storage bytes directly need this, or a resolved copy.
    pub fn is_resolved(&self) -> bool {
        let i = self.0.borrow();
        !i.conj && !i.neg
    }

    /// The same elements with the conjugate and negative bits cleared: a handle that reads
    /// the stored values (writers into such a view use it after applying the bits to what
    /// they write).
    pub fn as_stored(&self) -> Tensor {
        let out = self.alias(self.layout());
        out.0.borrow_mut().conj = false;
        out.0.borrow_mut().neg = false;
        out
    }

    /// A view with another dtype and layout over the same storage.
    pub fn alias_as(&self, dtype: DType, layout: Layout) -> Tensor {
        let i = self.0.borrow();
        Tensor::aliasing(&i, dtype, (false, false), layout, GradState::default())
    }

    /// The version counter, shared with this tensor's views.
    pub fn version(&self) -> version::VersionCounter {
        self.0.borrow().version.clone()
    }

    /// Gives this handle a counter of its own (`.data`: writes through it are not seen
    /// by autograd's checks, as in PyTorch).
    pub fn detach_version(&self) {
        self.0.borrow_mut().version = version::VersionCounter::default();
    }

    /// Whether two handles are the same tensor object.
    pub fn ptr_eq(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// An identity for this tensor object, stable while it lives.
    pub fn id(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    /// The storage handle.
    pub fn storage(&self) -> Storage {
        self.0.borrow().storage.clone()
    }

    /// Element type.
    pub fn dtype(&self) -> DType {
        self.0.borrow().dtype
    }

    /// A copy of the layout.
    pub fn layout(&self) -> Layout {
        self.0.borrow().layout.clone()
    }

    /// Sizes.
    pub fn sizes(&self) -> Vec<i64> {
        self.0.borrow().layout.sizes.to_vec()
    }

    /// Strides.
    pub fn strides(&self) -> Vec<i64> {
        self.0.borrow().layout.strides.to_vec()
    }

    /// Storage offset in elements.
    pub fn offset(&self) -> i64 {
        self.0.borrow().layout.offset
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.0.borrow().layout.ndim()
    }

    /// Number of elements.
    pub fn numel(&self) -> i64 {
        self.0.borrow().layout.numel()
    }

    /// `is_contiguous()`.
    pub fn is_contiguous(&self) -> bool {
        self.0.borrow().layout.is_contiguous()
    }

    /// Runs `f` on the bytes of storage elements `[offset, offset + numel)`, after the bounds
    /// check. For a dense tensor (contiguous, or a permutation of contiguous dims; the caller
    /// checks) those are exactly its elements, in memory order.
    pub fn with_dense_bytes<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        let (l, w) = (self.layout(), self.dtype().itemsize());
        self.storage().with_bytes(|bytes| {
            l.check_in_bounds(w, bytes.len())?;
            Ok(f(bytes.get(dense_range(&l, w)).unwrap_or_default()))
        })
    }

    /// `with_dense_bytes` for writing.
    pub fn with_dense_bytes_mut<R>(&self, f: impl FnOnce(&mut [u8]) -> R) -> Result<R> {
        let (l, w) = (self.layout(), self.dtype().itemsize());
        self.storage().with_bytes_mut(|bytes| {
            l.check_in_bounds(w, bytes.len())?;
            Ok(f(bytes.get_mut(dense_range(&l, w)).unwrap_or_default()))
        })
    }

    /// Address of the first element: the storage's address plus the offset in bytes; 0 for
    /// a tensor with no elements, as PyTorch gives (whatever storage it views).
    pub fn data_ptr(&self) -> usize {
        let i = self.0.borrow();
        let base = i.storage.data_ptr();
        if base == 0 || i.layout.sizes.contains(&0) {
            return 0;
        }
        base.wrapping_add((i.layout.offset as usize).wrapping_mul(i.dtype.itemsize()))
    }

    /// Replaces storage, dtype and layout in place (`set_`, `resize_`, `as_strided_`): every
    /// name bound to this tensor sees the change.
    pub fn replace(&self, storage: Storage, layout: Layout) {
        let mut i = self.0.borrow_mut();
        i.storage = storage;
        i.layout = layout;
    }

    /// Changes only the layout in place.
    pub fn set_layout(&self, layout: Layout) {
        self.0.borrow_mut().layout = layout;
    }

    /// Read access to the fields.
    pub fn with<R>(&self, f: impl FnOnce(&TensorImpl) -> R) -> R {
        f(&self.0.borrow())
    }

    /// Whether autograd tracks this tensor (`requires_grad`), without copying the other
    /// autograd fields.
    pub fn requires_grad(&self) -> bool {
        self.0.borrow().grad.requires_grad
    }

    /// The autograd fields (a copy).
    pub fn grad_state(&self) -> GradState {
        self.0.borrow().grad.clone()
    }

    /// Mutates the autograd fields.
    pub fn with_grad_mut<R>(&self, f: impl FnOnce(&mut GradState) -> R) -> R {
        f(&mut self.0.borrow_mut().grad)
    }

    /// A weak handle to this tensor.
    pub fn downgrade(&self) -> WeakTensor {
        WeakTensor(Rc::downgrade(&self.0))
    }

    /// `t.retain_grad()`: a non-leaf keeps its gradient after `backward()` (a leaf keeps
    /// its own anyway); refused for a tensor that does not require grad.
    pub fn retain_grad(&self) -> crate::core::error::Result<()> {
        let state = self.grad_state();
        if !state.requires_grad {
            return Err(crate::core::error::TorchError::runtime(
                "can't retain_grad on Tensor that has requires_grad=False",
            ));
        }
        let Some(node) = state.grad_fn else {
            return Ok(());
        };
        if state.retains_grad {
            return Ok(());
        }
        node.retained
            .borrow_mut()
            .push((state.output_nr, self.downgrade()));
        self.with_grad_mut(|g| g.retains_grad = true);
        Ok(())
    }
}
