// Mantine's CSS per component, never the whole styles.css (STACK-NOTES: 35 KiB → under 10 KiB).
// What every page uses is imported here, by the entry: one stylesheet the server links on every
// page. The checkbox and the terms-of-use dialog, which only /register shows, bring their styles
// along (pages/Register/RegisterForm.tsx, components/TermsOfUse): the server links the register
// page's stylesheet with it, and the browser loads it with the page's chunk when a link leads there.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Group.css';
import './layout.css';
// After Mantine's and the layout's rules: what WCAG 2.2 AA needs on top (issue 12).
import './accessibility.css';
