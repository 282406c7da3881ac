package org.reconmuc.component.transport;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the framer (Jazzer): whatever bytes the server sends, the framer
 * returns frames or throws {@link StreamException} (or EOFException at the end); it never throws
 * anything else, never loops, and never makes more of the input than it holds: every frame takes
 * at least one byte of its own, so there are never more frames than bytes, and their sizes add up
 * to no more than the input. {@code mvn test} replays the inputs under
 * {@code src/test/resources/.../XmlFramerFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes.
 */
class XmlFramerFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void framesOrRefuses(byte[] input) throws IOException {
        XmlFramer framer = new XmlFramer(new ByteArrayInputStream(input), 4096, 128);
        long framedBytes = 0;
        try {
            for (int frames = 0; ; frames++) {
                XmlFramer.Frame frame = framer.next();
                if (frames >= input.length) {
                    throw new AssertionError("more frames than bytes: frame " + (frames + 1) + " (" + frame.kind()
                            + ") of an input of " + input.length + " bytes");
                }
                if (frame.size() < 1) {
                    throw new AssertionError("a frame of " + frame.size() + " bytes (" + frame.kind() + ")");
                }
                framedBytes += frame.size();
                if (framedBytes > input.length) {
                    throw new AssertionError("frames of " + framedBytes + " bytes from an input of " + input.length);
                }
            }
        } catch (StreamException | EOFException expected) {
            return;
        }
    }
}
