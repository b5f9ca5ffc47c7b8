import React from 'react';

export function Icon({ name }) {
  return <i className={name} />;
}

export default function Button({ label, onClick }) {
  return (
    <button onClick={onClick}>
      <Icon name="ok" />
      {label}
    </button>
  );
}
