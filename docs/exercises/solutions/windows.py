# exercise: windows
def answer(x):
    return x.unfold(0, 3, 1)
