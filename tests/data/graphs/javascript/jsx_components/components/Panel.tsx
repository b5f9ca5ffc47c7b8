import * as React from 'react';
import Button, { Icon } from './Button';

type Props = { title: string };

export class Panel extends React.Component<Props> {
  renderHeader() {
    return <h2>{this.props.title}</h2>;
  }

  render() {
    return (
      <section>
        {this.renderHeader()}
        <Button label="close" onClick={() => this.close()} />
        <Icon name="x" />
      </section>
    );
  }

  close() {}
}
