// Clang thread-safety attributes (-Wthread-safety) as macros; they expand to nothing elsewhere.
#pragma once

// The macro set follows clang's documentation (ThreadSafetyAnalysis.html), so the annotations
// read as they do there. Only clang checks them; gcc builds see plain declarations.
#if defined(__clang__)
#define ANCHORFS_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define ANCHORFS_THREAD_ANNOTATION(x)
#endif

// A type whose objects are locks (capabilities), and a RAII type that holds one for a scope.
#define CAPABILITY(x) ANCHORFS_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY ANCHORFS_THREAD_ANNOTATION(scoped_lockable)

// Data that may only be touched (or, for PT_, pointed to) while holding the given lock.
#define GUARDED_BY(x) ANCHORFS_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) ANCHORFS_THREAD_ANNOTATION(pt_guarded_by(x))

// Functions: the caller must hold (or must not hold) the lock; the function takes or drops it.
#define REQUIRES(...) ANCHORFS_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) ANCHORFS_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define EXCLUDES(...) ANCHORFS_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ACQUIRE(...) ANCHORFS_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define ACQUIRE_SHARED(...) ANCHORFS_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define RELEASE(...) ANCHORFS_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define RELEASE_SHARED(...) ANCHORFS_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define RELEASE_GENERIC(...) ANCHORFS_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) ANCHORFS_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define TRY_ACQUIRE_SHARED(...) \
  ANCHORFS_THREAD_ANNOTATION(try_acquire_shared_capability(__VA_ARGS__))
#define ASSERT_CAPABILITY(x) ANCHORFS_THREAD_ANNOTATION(assert_capability(x))
#define RETURN_CAPABILITY(x) ANCHORFS_THREAD_ANNOTATION(lock_returned(x))

// The escape hatch, for a function whose locking the analysis cannot follow; say why at each use.
#define NO_THREAD_SAFETY_ANALYSIS ANCHORFS_THREAD_ANNOTATION(no_thread_safety_analysis)
