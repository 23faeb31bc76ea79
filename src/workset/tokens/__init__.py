"""Token accounting: tokenizers, chat formats rendered into parts, and the cached counter that
makes preparing call N+1 cost what changed rather than the whole history."""
