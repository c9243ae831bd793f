# exercise: repeat_row
def answer(v):
    return v.expand(3, v.shape[0])
