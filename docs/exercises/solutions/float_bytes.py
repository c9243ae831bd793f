# exercise: float_bytes
import torch


def answer(f):
    return f.view(torch.uint8)
