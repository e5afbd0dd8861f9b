package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AdmissionTest {
  @Test
  void requestsAreAdmittedWithinTheCountAndTheHeapBudget() {
    Admission a = new Admission(3, 100);
    assertThat(a.tryEnter(60)).isTrue();
    assertThat(a.tryEnter(50)).as("60 + 50 claimed would exceed 100").isFalse();
    assertThat(a.tryEnter(40)).isTrue();
    assertThat(a.claimedBytes()).isEqualTo(100);
    assertThat(a.inFlight()).isEqualTo(2);
    assertThat(a.tryEnter(0)).as("claims nothing: only the count applies").isTrue();
    assertThat(a.tryEnter(0)).as("three in flight").isFalse();
    assertThat(a.refused()).isEqualTo(2);
    a.release(60);
    a.release(40);
    a.release(0);
    assertThat(a.claimedBytes()).isZero();
    assertThat(a.inFlight()).isZero();
  }

  @Test
  void aRequestAloneIsAdmittedWhateverItClaims() {
    Admission a = new Admission(2, 100);
    assertThat(a.tryEnter(500)).isTrue();
    assertThat(a.tryEnter(1)).isFalse();
    a.release(500);
    assertThat(a.tryEnter(1)).isTrue();
  }

  @Test
  void moreIsClaimedWithinTheBudgetOrWhenAlone() {
    Admission a = new Admission(4, 100);
    assertThat(a.tryEnter(30)).isTrue();
    assertThat(a.tryClaimMore(30, 500)).as("alone").isTrue();
    a.release(530);
    assertThat(a.tryEnter(30)).isTrue();
    assertThat(a.tryEnter(30)).isTrue();
    assertThat(a.tryClaimMore(30, 40)).isTrue();
    assertThat(a.tryClaimMore(70, 1)).as("100 claimed").isFalse();
    assertThat(a.claimedBytes()).isEqualTo(100);
    a.release(70);
    a.release(30);
    assertThat(a.claimedBytes()).isZero();
  }

  @Test
  void anAnswerBeingWrittenHoldsItsPermitAndItsSizeUntilAnswered() {
    Admission a = new Admission(2, 100);
    assertThat(a.tryEnter(80)).isTrue();
    long held = a.answering(80, 60); // done: a 60-byte answer goes to a client that reads slowly
    assertThat(held).isEqualTo(60);
    assertThat(a.inFlight()).isEqualTo(1);
    assertThat(a.claimedBytes()).isEqualTo(60);
    assertThat(a.writingBytes()).isEqualTo(60);
    assertThat(a.tryEnter(50)).as("60 being written + 50 would exceed 100").isFalse();
    assertThat(a.tryEnter(40)).as("60 + 40 fit").isTrue();
    assertThat(a.tryEnter(0)).as("two permits taken, one by the answer").isFalse();
    assertThat(a.tryClaimMore(40, 1)).as("not alone while an answer is written").isFalse();
    a.release(40);
    a.answered(held, 60);
    assertThat(a.writingBytes()).isZero();
    assertThat(a.claimedBytes()).isZero();
    assertThat(a.inFlight()).isZero();
    assertThat(a.tryEnter(500)).as("alone again").isTrue();
    // an answer larger than its claim holds only the claim
    assertThat(a.answering(500, 900)).isEqualTo(500);
    a.answered(500, 900);
    assertThat(a.claimedBytes()).isZero();
    assertThat(a.writingBytes()).isZero();
  }

  @Test
  void partOfAClaimCanBeGivenBack() {
    Admission a = new Admission(4, 100);
    assertThat(a.tryEnter(90)).isTrue();
    assertThat(a.tryEnter(20)).isFalse();
    a.giveBack(80); // the body was smaller than it could have been
    assertThat(a.tryEnter(20)).isTrue();
    a.release(10);
    a.release(20);
    assertThat(a.claimedBytes()).isZero();
    assertThat(a.inFlight()).isZero();
  }
}
