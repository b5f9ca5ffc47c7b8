import { Panel } from './components/Panel';
import * as Components from './components/Button';

const Layout = ({ children }) => <main>{children}</main>;

export default function App() {
  return (
    <Layout>
      <Panel title="Home" />
      <Components.Icon name="home" />
      <div>plain text, not a call: Panel()</div>
    </Layout>
  );
}
