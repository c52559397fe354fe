/* SPDX-License-Identifier: MIT */
/*
 * credential.h - a BMC password from where raidcli accepts one: a file
 * only its owner can read, an environment variable, or the person at the
 * terminal. Never argv: any user on the host can read another's command
 * line in /proc.
 */
#ifndef RCL_REDFISH_CREDENTIAL_H
#define RCL_REDFISH_CREDENTIAL_H

#include "raidcli.h"

/* The longest password accepted, in bytes. */
#define RCL_REDFISH_PASSWORD_MAX 1024

/**
 * rcl_redfish_password_load() - the password in file @file or, when @file
 * is NULL, in environment variable @env, as a new string in *@out (free it
 * with rcl_redfish_secret_free()). A file must be a regular file owned by
 * the caller (or root) that neither its group nor others may read or
 * write; one trailing newline is not part of the password.
 * Return: RCL_OK; RCL_NOT_ALLOWED naming a file others may read or that
 * another user owns, and its mode; RCL_INVALID_PARAM for an empty or
 * oversized password, a variable not set, or neither source given;
 * RCL_NOT_FOUND, RCL_SYSTEM for a file that cannot be read; RCL_NOMEM.
 * No message ever holds the password.
 */
enum rcl_status rcl_redfish_password_load(const char *file, const char *env, char **out,
                                          struct rcl_error *err);

/**
 * rcl_redfish_password_ask() - the password of @user at @realm, asked
 * through @ctx's askpass, as a new string in *@out (free it with
 * rcl_redfish_secret_free()).
 * Return: RCL_OK; the askpass's status (or RCL_UNSUPPORTED without one)
 * with a message naming the options that need no terminal;
 * RCL_INVALID_PARAM for an empty answer; RCL_NOMEM.
 */
enum rcl_status rcl_redfish_password_ask(const struct rcl_ctx *ctx, const char *user,
                                         const char *realm, char **out, struct rcl_error *err);

/* rcl_redfish_secret_free() - overwrite @secret with zeros and free it; NULL is a no-op. */
void rcl_redfish_secret_free(char *secret);

#endif /* RCL_REDFISH_CREDENTIAL_H */
