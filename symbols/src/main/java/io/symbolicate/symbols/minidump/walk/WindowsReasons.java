package io.symbolicate.symbols.minidump.walk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Windows exception codes, and the parameters Breakpad reads for three of them: the access type
 * (read, write, execute) and faulting address of an access violation or in-page error, the
 * NTSTATUS behind an in-page error, and the fast-fail subcode of {@code
 * STATUS_STACK_BUFFER_OVERRUN} ({@code __fastfail}).
 */
final class WindowsReasons {
  private WindowsReasons() {}

  static final long ACCESS_VIOLATION = 0xC0000005L;
  static final long IN_PAGE_ERROR = 0xC0000006L;
  static final long STACK_BUFFER_OVERRUN = 0xC0000409L;

  static final CodeNames CODES =
      CodeNames.parse(
          """
          0x40010005 DBG_CONTROL_C, 0x80000001 EXCEPTION_GUARD_PAGE
          0x80000002 EXCEPTION_DATATYPE_MISALIGNMENT, 0x80000003 EXCEPTION_BREAKPOINT
          0x80000004 EXCEPTION_SINGLE_STEP, 0xC0000008 EXCEPTION_INVALID_HANDLE
          0xC000001D EXCEPTION_ILLEGAL_INSTRUCTION, 0xC0000025 EXCEPTION_NONCONTINUABLE_EXCEPTION
          0xC0000026 EXCEPTION_INVALID_DISPOSITION, 0xC000008C EXCEPTION_BOUNDS_EXCEEDED
          0xC000008D EXCEPTION_FLT_DENORMAL_OPERAND, 0xC000008E EXCEPTION_FLT_DIVIDE_BY_ZERO
          0xC000008F EXCEPTION_FLT_INEXACT_RESULT, 0xC0000090 EXCEPTION_FLT_INVALID_OPERATION
          0xC0000091 EXCEPTION_FLT_OVERFLOW, 0xC0000092 EXCEPTION_FLT_STACK_CHECK
          0xC0000093 EXCEPTION_FLT_UNDERFLOW, 0xC0000094 EXCEPTION_INT_DIVIDE_BY_ZERO
          0xC0000095 EXCEPTION_INT_OVERFLOW, 0xC0000096 EXCEPTION_PRIV_INSTRUCTION
          0xC00000FD EXCEPTION_STACK_OVERFLOW, 0xC00000FF EXCEPTION_BAD_FUNCTION_TABLE
          0xC0000194 EXCEPTION_POSSIBLE_DEADLOCK, 0xC0000374 EXCEPTION_HEAP_CORRUPTION
          0xE0000008 Out of Memory, 0xE06D7363 Unhandled C++ Exception
          0x0517A7ED Simulated Exception
          """);

  /** exception_information[0] of an access violation or in-page error. */
  private static final CodeNames ACCESS = CodeNames.parse("0 _READ, 1 _WRITE, 8 _EXEC");

  /** exception_information[0] of a stack buffer overrun; 0 (legacy /GS) keeps the code's name. */
  static final CodeNames FAST_FAIL =
      CodeNames.parse(
          """
          1 FAST_FAIL_VTGUARD_CHECK_FAILURE, 2 FAST_FAIL_STACK_COOKIE_CHECK_FAILURE
          3 FAST_FAIL_CORRUPT_LIST_ENTRY, 4 FAST_FAIL_INCORRECT_STACK, 5 FAST_FAIL_INVALID_ARG
          6 FAST_FAIL_GS_COOKIE_INIT, 7 FAST_FAIL_FATAL_APP_EXIT, 8 FAST_FAIL_RANGE_CHECK_FAILURE
          9 FAST_FAIL_UNSAFE_REGISTRY_ACCESS, 10 FAST_FAIL_GUARD_ICALL_CHECK_FAILURE
          11 FAST_FAIL_GUARD_WRITE_CHECK_FAILURE, 12 FAST_FAIL_INVALID_FIBER_SWITCH
          13 FAST_FAIL_INVALID_SET_OF_CONTEXT, 14 FAST_FAIL_INVALID_REFERENCE_COUNT
          18 FAST_FAIL_INVALID_JUMP_BUFFER, 19 FAST_FAIL_MRDATA_MODIFIED
          20 FAST_FAIL_CERTIFICATION_FAILURE, 21 FAST_FAIL_INVALID_EXCEPTION_CHAIN
          22 FAST_FAIL_CRYPTO_LIBRARY, 23 FAST_FAIL_INVALID_CALL_IN_DLL_CALLOUT
          24 FAST_FAIL_INVALID_IMAGE_BASE, 25 FAST_FAIL_DLOAD_PROTECTION_FAILURE
          26 FAST_FAIL_UNSAFE_EXTENSION_CALL, 27 FAST_FAIL_DEPRECATED_SERVICE_INVOKED
          28 FAST_FAIL_INVALID_BUFFER_ACCESS, 29 FAST_FAIL_INVALID_BALANCED_TREE
          30 FAST_FAIL_INVALID_NEXT_THREAD, 31 FAST_FAIL_GUARD_ICALL_CHECK_SUPPRESSED
          32 FAST_FAIL_APCS_DISABLED, 33 FAST_FAIL_INVALID_IDLE_STATE
          34 FAST_FAIL_MRDATA_PROTECTION_FAILURE, 35 FAST_FAIL_UNEXPECTED_HEAP_EXCEPTION
          36 FAST_FAIL_INVALID_LOCK_STATE, 37 FAST_FAIL_GUARD_JUMPTABLE
          38 FAST_FAIL_INVALID_LONGJUMP_TARGET, 39 FAST_FAIL_INVALID_DISPATCH_CONTEXT
          40 FAST_FAIL_INVALID_THREAD, 41 FAST_FAIL_INVALID_SYSCALL_NUMBER
          42 FAST_FAIL_INVALID_FILE_OPERATION, 43 FAST_FAIL_LPAC_ACCESS_DENIED
          44 FAST_FAIL_GUARD_SS_FAILURE, 45 FAST_FAIL_LOADER_CONTINUITY_FAILURE
          46 FAST_FAIL_GUARD_EXPORT_SUPPRESSION_FAILURE, 47 FAST_FAIL_INVALID_CONTROL_STACK
          48 FAST_FAIL_SET_CONTEXT_DENIED, 49 FAST_FAIL_INVALID_IAT
          50 FAST_FAIL_HEAP_METADATA_CORRUPTION, 51 FAST_FAIL_PAYLOAD_RESTRICTION_VIOLATION
          52 FAST_FAIL_LOW_LABEL_ACCESS_DENIED, 53 FAST_FAIL_ENCLAVE_CALL_FAILURE
          54 FAST_FAIL_UNHANDLED_LSS_EXCEPTON, 55 FAST_FAIL_ADMINLESS_ACCESS_DENIED
          56 FAST_FAIL_UNEXPECTED_CALL, 57 FAST_FAIL_CONTROL_INVALID_RETURN_ADDRESS
          58 FAST_FAIL_UNEXPECTED_HOST_BEHAVIOR, 59 FAST_FAIL_FLAGS_CORRUPTION
          60 FAST_FAIL_VEH_CORRUPTION, 61 FAST_FAIL_ETW_CORRUPTION, 62 FAST_FAIL_RIO_ABORT
          63 FAST_FAIL_INVALID_PFN, 64 FAST_FAIL_GUARD_ICALL_CHECK_FAILURE_XFG
          65 FAST_FAIL_CAST_GUARD, 66 FAST_FAIL_HOST_VISIBILITY_CHANGE
          67 FAST_FAIL_KERNEL_CET_SHADOW_STACK_ASSIST, 68 FAST_FAIL_PATCH_CALLBACK_FAILED
          69 FAST_FAIL_NTDLL_PATCH_FAILED, 70 FAST_FAIL_INVALID_FLS_DATA
          """);

  private static CodeNames ntStatus;

  static String reason(long code, long[] p, String numeric) {
    if (code == ACCESS_VIOLATION || code == IN_PAGE_ERROR) {
      String base =
          code == ACCESS_VIOLATION ? "EXCEPTION_ACCESS_VIOLATION" : "EXCEPTION_IN_PAGE_ERROR";
      String reason = p.length >= 1 ? base + ACCESS.get(p[0], "") : base;
      if (code == IN_PAGE_ERROR && p.length >= 3) {
        reason += " / " + ntStatusName(p[2]);
      }
      return reason;
    }
    if (code == STACK_BUFFER_OVERRUN) {
      String fastFail = p.length >= 1 ? FAST_FAIL.get(p[0]) : null;
      return fastFail == null ? "EXCEPTION_STACK_BUFFER_OVERRUN" : fastFail;
    }
    return CODES.get(code, numeric);
  }

  /** An access violation's or in-page error's address is the data address, parameter 1. */
  static long address(long code, long[] p, long exceptionAddress) {
    return (code == ACCESS_VIOLATION || code == IN_PAGE_ERROR) && p.length >= 2
        ? p[1]
        : exceptionAddress;
  }

  /** The NTSTATUS name (0xC... codes of ntstatus.h), else its hex value. */
  static String ntStatusName(long status) {
    return ntStatus().get(status, String.format("0x%08x", status & 0xFFFFFFFFL));
  }

  private static synchronized CodeNames ntStatus() {
    if (ntStatus == null) {
      // 2115 names: a resource rather than code, read on the first in-page error
      try (InputStream in = WindowsReasons.class.getResourceAsStream("ntstatus-names.txt");
          BufferedReader r =
              new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
        StringBuilder table = new StringBuilder();
        for (String line; (line = r.readLine()) != null; ) {
          table.append("0x").append(line).append('\n');
        }
        ntStatus = CodeNames.parse(table.toString());
      } catch (IOException e) {
        throw new UncheckedIOException("ntstatus-names.txt", e);
      }
    }
    return ntStatus;
  }
}
