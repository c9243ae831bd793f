# exercise: transpose_by_strides
# Swap the sizes and the strides: nothing moves in memory.
def answer(x):
    return x.as_strided((x.shape[1], x.shape[0]), (x.stride(1), x.stride(0)), x.storage_offset())
