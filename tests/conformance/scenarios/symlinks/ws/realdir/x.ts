let x=1;
