// The smallest Ink program that draws a prompt: the start-up floor of any Ink-based chat client.
import { Box, render, Text } from 'ink';

const app = render(
  <Box flexDirection="column">
    <Text>hello</Text>
    <Text>› </Text>
  </Box>,
);
setTimeout(() => app.unmount(), 2000);
