# exercise: diagonal
# One step down and one to the right is stride(0) + stride(1) elements.
def answer(x):
    n = x.shape[0]
    return x.as_strided((n,), (x.stride(0) + x.stride(1),), x.storage_offset())
