"""Student-side checks: what test cells call (`check`), the probes that gather evidence where the
student's function lives (`evidence`), and the diagnosis of JAX errors in student terms
(`diagnose`). Nothing here reads source/; the student kit ships this sub-package."""
