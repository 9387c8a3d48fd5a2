/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* firstcall_jni.c: FirstCall.java's native methods, the witness's calls. */
#include <jni.h>
#include "witness.h"

JNIEXPORT void JNICALL Java_FirstCall_before(JNIEnv *env, jclass class, jint callers)
{
  (void)env;
  (void)class;
  witness_before(callers);
}

JNIEXPORT jlong JNICALL Java_FirstCall_call(JNIEnv *env, jclass class)
{
  (void)env;
  (void)class;
  return witness_call();
}

JNIEXPORT void JNICALL Java_FirstCall_after(JNIEnv *env, jclass class)
{
  (void)env;
  (void)class;
  witness_after();
}

JNIEXPORT jstring JNICALL Java_FirstCall_report(JNIEnv *env, jclass class)
{
  (void)class;
  return (*env)->NewStringUTF(env, witness_report());
}
