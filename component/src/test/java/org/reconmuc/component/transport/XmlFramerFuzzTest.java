package org.reconmuc.component.transport;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the framer (Jazzer): whatever bytes the server sends, the framer
 * returns frames or throws {@link StreamException} (or IOException at the end); it never throws
 * anything else and never loops. {@code mvn test} replays the inputs under
 * {@code src/test/resources/.../XmlFramerFuzzTestInputs}; {@code JAZZER_FUZZ=1} fuzzes.
 */
class XmlFramerFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void framesOrRefuses(byte[] input) throws IOException {
        XmlFramer framer = new XmlFramer(new ByteArrayInputStream(input), 4096, 128);
        try {
            for (int i = 0; i <= input.length + 1; i++) {
                if (framer.next() == null) {
                    return;
                }
            }
        } catch (StreamException | java.io.EOFException expected) {
            return;
        }
    }
}
