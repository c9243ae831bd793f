# exercise: flatten_transpose
# view(6) fails (no single stride walks a transpose row by row); reshape copies.
def answer(t):
    return t.reshape(-1)
