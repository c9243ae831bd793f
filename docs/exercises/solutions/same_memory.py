# exercise: same_memory
def answer(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
