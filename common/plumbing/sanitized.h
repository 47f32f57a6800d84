/*
 * sanitized.h: UPKIT_SANITIZED is 1 in a build under AddressSanitizer
 * (make SANITIZE=address,undefined), else 0.
 *
 * Release builds skip work that only a checker needs: freeing what the
 * process holds just before it exits, jarena's pooling (which would
 * hide overruns), and they leave out jwriter's check of kept text.
 */
#ifndef UPKIT_SANITIZED_H
#define UPKIT_SANITIZED_H

#if defined(__SANITIZE_ADDRESS__)
#define UPKIT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UPKIT_SANITIZED 1
#endif
#endif
#ifndef UPKIT_SANITIZED
#define UPKIT_SANITIZED 0
#endif

#endif
